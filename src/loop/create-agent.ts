import { buildModelRequest } from "../context/build-model-request.js";
import { composeContextPolicies } from "../context/compose-context-policies.js";
import { createPrefixGuard, type PrefixGuard } from "../context/prefix-guard/index.js";
import { createMemoryBlobStore } from "../context/compression/blob-store.js";
import { getTokenCounter } from "../tokens/get-token-counter.js";
import { createQwen3PromptTokens } from "../tokens/prompt-tokens.js";
import type { Provider } from "../providers/provider.js";
import { checkProviderContract } from "../providers/check-provider-contract.js";
import type { StablePrefix } from "../context/stable-prefix.js";
import { resolveAgentPrefix } from "./resolve-agent-prefix.js";
import { resolveAgentTools } from "./resolve-agent-tools.js";
import type { Tool } from "../tools/tool.js";
import { compileArgumentValidators } from "../tools/validate-tool-arguments.js";
import { validateToolDefinitions } from "../tools/validate-tool-definitions.js";
import { ConfigError, UsageError, type Message, type UserMessage } from "../types/index.js";
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
  checkProviderContract(options.provider);
  const resolved = resolveAgentTools({ ...options, toolSearch: toolSearchSettings(options) });
  const policy = composeContextPolicies(...resolved.context);
  // Deferred tools are validated and runnable like the others; only the prefix leaves them out.
  const tools = [...resolved.tools, ...(policy.tools ?? [])];
  validateToolDefinitions(tools);
  const validators = compileArgumentValidators(tools);
  const prefix = resolveAgentPrefix({ system: options.system, tools: resolved.tools, context: policy.members });
  // Native tool search: the provider sends the deferred definitions itself (with `defer_loading`).
  const deferredTools = resolved.toolSearch?.native ? resolved.toolSearch.deferredDefinitions : undefined;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one map
  const toolsByName = new Map<string, Tool<any>>(tools.map((tool) => [tool.name, tool]));
  const clock = options.clock ?? (() => new Date());
  const createId = options.createId ?? defaultIdGenerator();
  const trajectory: Message[] = [...(options.messages ?? [])];
  let running = false;

  const state: LoopState = {
    options,
    policy,
    blobStore: options.blobStore ?? createMemoryBlobStore(),
    replaced: new Map((options.messageLog ?? []).map((message) => [message.meta.id, message])),
    prefix,
    trajectory,
    toolsByName,
    validators,
    clock,
    createId,
    guard: createGuard(options),
    declaredBreak: undefined,
    toolCallCounts: countToolCalls(trajectory),
    lastUsage: undefined,
    lastRequestAt: undefined,
    budget: undefined,
    buildRequest: (tail?: UserMessage) =>
      buildModelRequest({ prefix, trajectory, ...(tail ? { tail } : {}), ...(options.settings ? { settings: options.settings } : {}), ...(deferredTools ? { deferredTools } : {}) }),
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

/** The tool-search settings, native when the provider searches on its side (and fails fast when asked for but unsupported). */
function toolSearchSettings(options: AgentOptions): AgentOptions["toolSearch"] {
  const native = options.toolSearch?.native ?? options.provider.nativeToolSearch === true;
  if (native && options.provider.nativeToolSearch !== true) {
    throw new ConfigError("option_invalid", `toolSearch.native needs a provider that searches tools on its side (createAnthropic({ toolSearch: "bm25" })); '${options.provider.name}' does not. Leave native off to use the tool_search/call_tool form.`);
  }
  return { ...options.toolSearch, native };
}

function createGuard(options: AgentOptions): PrefixGuard | undefined {
  const settings = options.prefixGuard;
  if (settings === false) return undefined;
  const provider: Provider = options.provider;
  const promptTokens =
    settings?.promptTokens === "qwen3"
      ? createQwen3PromptTokens(getTokenCounter("qwen3"))
      : (settings?.promptTokens ?? (provider.promptTokens ? (request: Parameters<NonNullable<Provider["promptTokens"]>>[0]) => provider.promptTokens!(request) : undefined));
  return createPrefixGuard({
    serialize: (request) => provider.serialize(request),
    counter: settings?.counter ?? getTokenCounter("estimate"),
    strict: settings?.strict ?? false,
    ...(promptTokens ? { promptTokens } : {}),
  });
}

function defaultIdGenerator(): () => string {
  const stamp = Date.now().toString(36);
  let counter = 0;
  return () => `m_${stamp}_${(counter++).toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}
