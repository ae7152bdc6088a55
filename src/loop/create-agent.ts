import { buildModelRequest } from "../context/build-model-request.js";
import { composeContextPolicies } from "../context/compose-context-policies.js";
import { createPrefixGuard } from "../context/prefix-guard/index.js";
import { getTokenCounter } from "../tokens/get-token-counter.js";
import { createStablePrefix, type StablePrefix } from "../context/stable-prefix.js";
import type { Tool } from "../tools/tool.js";
import { compileArgumentValidators } from "../tools/validate-tool-arguments.js";
import { validateToolDefinitions } from "../tools/validate-tool-definitions.js";
import { UsageError, type Message, type UserMessage } from "../types/index.js";
import type { AgentOptions } from "./agent-options.js";
import { countToolCalls, type LoopState } from "./loop-state.js";
import { runAgentLoop } from "./run-agent-loop.js";
import { createRunHandle, type RunHandle } from "./run-handle.js";

export interface RunOptions {
  signal?: AbortSignal;
}

export interface Agent {
  /** Starts a run with a user message; the trajectory carries over between runs (a chat). */
  run(input: string, options?: RunOptions): RunHandle;
  /** The trajectory so far (read-only view). */
  readonly messages: readonly Message[];
  /** The frozen system prompt and tools every request starts with. */
  readonly prefix: StablePrefix;
  readonly sessionId: string | undefined;
  /**
   * Announces that the next request intentionally changes already-sent context (a compaction, a
   * tool-set change the user asked for), so the prefix guard records it as a declared break.
   */
  declareCacheBreak(reason: string): void;
}

/**
 * Creates an agent. Misuse fails here, before any model call: invalid tool names or schemas,
 * duplicate tools. Tools are sorted and frozen once, so requests keep a byte-stable prefix.
 */
export function createAgent(options: AgentOptions): Agent {
  const tools = options.tools ?? [];
  validateToolDefinitions(tools);
  const validators = compileArgumentValidators(tools);
  const prefix = createStablePrefix(options.system, tools);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one map
  const toolsByName = new Map<string, Tool<any>>(tools.map((tool) => [tool.name, tool]));
  const clock = options.clock ?? (() => new Date());
  const createId = options.createId ?? defaultIdGenerator();
  const trajectory: Message[] = [...(options.messages ?? [])];
  let running = false;

  const state: LoopState = {
    options: withContextPolicy(options),
    prefix,
    trajectory,
    toolsByName,
    validators,
    clock,
    createId,
    guard:
      options.prefixGuard === false
        ? undefined
        : createPrefixGuard({ counter: options.prefixGuard?.counter ?? getTokenCounter("estimate"), strict: options.prefixGuard?.strict ?? false }),
    declaredBreak: undefined,
    toolCallCounts: countToolCalls(trajectory),
    lastUsage: undefined,
    lastRequestAt: undefined,
    buildRequest: (tail?: UserMessage) =>
      buildModelRequest({ prefix, trajectory, ...(tail ? { tail } : {}), ...(options.settings ? { settings: options.settings } : {}) }),
  };

  return {
    run(input, runOptions = {}) {
      return createRunHandle(async function* () {
        if (running) throw new UsageError("agent_busy", "This agent is already running; await the current run's result() (or abort it) before calling run() again, or create a second agent.");
        running = true;
        try {
          return yield* runAgentLoop(state, input, runOptions.signal);
        } finally {
          running = false;
        }
      });
    },
    get messages() {
      return trajectory;
    },
    prefix,
    sessionId: options.session?.id,
    declareCacheBreak(reason) {
      state.declaredBreak = { reason };
    },
  };
}

/** Folds `contextPolicy` and the direct `processToolResult` / `prepareContext` options into one policy. */
function withContextPolicy(options: AgentOptions): AgentOptions {
  if (!options.contextPolicy) return options;
  const direct = { name: "options", processToolResult: options.processToolResult, prepareContext: options.prepareContext };
  const combined = composeContextPolicies(options.contextPolicy, direct);
  return { ...options, processToolResult: combined.processToolResult, prepareContext: combined.prepareContext };
}

function defaultIdGenerator(): () => string {
  const stamp = Date.now().toString(36);
  let counter = 0;
  return () => `m_${stamp}_${(counter++).toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}
