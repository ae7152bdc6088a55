import type pg from "pg";
import { createBenchDurableAgent } from "../../bench/durable/bench-durable-agent.js";
import type { DurableAgentBuilder } from "../../durable/durable-agent-builder.js";
import { createAgentFromConfig } from "../../config/create-agent-from-config.js";
import type { ConfigFile } from "../../config/config-schema.js";
import { resolveConfig, type ResolvedConfig } from "../resolve-config.js";
import { fillRunSecrets, type LeftOutSecrets } from "./run-secrets.js";
import { hostname } from "node:os";
import { stat } from "node:fs/promises";
import { ConfigError } from "../../types/index.js";

/** What `ctxkit submit` stores for a worker to rebuild `ctxkit run`'s agent: the resolved settings, without secrets. */
export interface CliRunInput {
  workspace: string;
  /** The settings `ctxkit run` would pass `createAgentFromConfig` (flags, variables and files merged), minus keys. */
  settings: ConfigFile;
  /** The secrets left out of `settings` (names only), filled in by the worker from its own config and environment. */
  secretsLeftOut?: LeftOutSecrets;
  userConfigPath?: string;
  home?: string;
}

/**
 * Settings a worker must not take from a run's record: secrets (its own environment provides them) and the submitting
 * process's own output. MCP servers' header and env values and URLs' user:password are left out too (run-secrets.ts).
 */
export const settingsLeftOutOfRuns = ["apiKey", "databaseUrl", "logRequests", "color"] as const;

/**
 * The agents a CLI worker can rebuild from a run's record. `cli`: the agent of `ctxkit run`, built
 * by the same library call from the settings `ctxkit submit` resolved, in the folder it named (the
 * workspace must exist on the worker's host too); the API key comes from the worker's environment.
 * `bench`: the durable bench's scripted agent.
 */
export function createDurableBuilders(environment: Record<string, string | undefined>, benchPool: pg.Pool): Record<string, DurableAgentBuilder> {
  return {
    cli: async (input, assembly) => {
      const run = input as unknown as CliRunInput;
      await requireWorkspace(run.workspace);
      const own = workerConfig(run, environment);
      const settings = fillRunSecrets({ ...run.settings }, run.secretsLeftOut, {
        ...(own.baseURL ? { baseURL: own.baseURL } : {}),
        mcpServers: own.mcp.servers as unknown as Record<string, Record<string, unknown>>,
        environment,
        host: hostname(),
      }) as ConfigFile;
      if (own.apiKey) settings.apiKey = own.apiKey;
      const contextWindow = settings.contextWindow ?? 128_000;
      const configured = await createAgentFromConfig({
        workspace: run.workspace,
        settings,
        session: { mode: "new" },
        sessionStore: assembly.sessionStore,
        clock: assembly.clock,
        ...(assembly.policies ? { policies: assembly.policies } : {}),
        runtime: { createId: assembly.createId, wrapTool: assembly.wrapTool },
        ...(assembly.notesReplay ? { notesReplay: assembly.notesReplay } : {}),
        observeProvider: (provider) => assembly.wrapProvider(provider, contextWindow),
        confirmToolCall: assembly.confirmToolCall,
        confirmBudget: assembly.confirmBudget,
        ...(run.userConfigPath ? { userConfigPath: run.userConfigPath } : {}),
        ...(run.home ? { home: run.home } : {}),
      });
      return { agent: configured.agent, close: () => configured.close() };
    },
    bench: createBenchDurableAgent(benchPool),
  };
}

/**
 * The worker's own settings for the run's workspace: its key for the run's provider (the variables
 * `ctxkit run` reads, CTXKIT_API_KEY and the vendor's own, then its config files), its baseURL and
 * MCP servers (where a run's left-out secrets come from).
 */
function workerConfig(run: CliRunInput, environment: Record<string, string | undefined>): ResolvedConfig {
  const { provider, vendor } = run.settings;
  return resolveConfig({ workspace: run.workspace, ...(provider ? { provider } : {}), ...(vendor ? { vendor } : {}) }, environment, { cwd: run.workspace });
}

/** The run's workspace must already be a folder on this host: building the agent would otherwise create it (and its data folder) empty. */
async function requireWorkspace(workspace: string): Promise<void> {
  const found = await stat(workspace).catch(() => undefined);
  if (found?.isDirectory()) return;
  const what = found ? "is not a folder" : "does not exist";
  throw new ConfigError("option_invalid", `The run's workspace ${workspace} ${what} on worker host ${hostname()}: run the worker where that folder exists (the same path as on the submitting machine), or submit from a folder the workers have.`);
}
