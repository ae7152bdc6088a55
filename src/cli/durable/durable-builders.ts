import type pg from "pg";
import { createBenchDurableAgent } from "../../bench/durable/bench-durable-agent.js";
import type { DurableAgentBuilder } from "../../durable/durable-agent-builder.js";
import { parseCommandLine } from "../cli-options.js";
import { createToolsFromConfig, defaultSystemPrompt } from "../../config/create-agent-from-config.js";
import { createProviderFromConfig } from "../../config/create-provider-from-config.js";
import { resolveConfig } from "../resolve-config.js";

/**
 * The agents a CLI worker can rebuild from a run's record. `cli`: the agent flags `ctxkit submit`
 * was given (API keys are not stored: the worker's own environment provides them) and the folder
 * it was run in; `bench`: the durable bench's scripted agent.
 */
export function createDurableBuilders(environment: Record<string, string | undefined>, benchPool: pg.Pool): Record<string, DurableAgentBuilder> {
  return {
    cli: async (input) => {
      const flags = Array.isArray(input.flags) ? input.flags.map(String) : [];
      const cwd = String(input.cwd ?? process.cwd());
      const config = resolveConfig(parseCommandLine(flags).flags, environment, { cwd });
      const contextWindow = config.contextWindow ?? 128_000;
      return {
        provider: createProviderFromConfig(config),
        tools: createToolsFromConfig(config),
        system: typeof input.system === "string" ? input.system : defaultSystemPrompt,
        maxIterations: config.maxIterations,
        workspace: config.workspace,
        maxCallTokens: contextWindow,
      };
    },
    bench: createBenchDurableAgent(benchPool),
  };
}
