import { buildModelRequest } from "../context/build-model-request.js";
import type { CacheCallObservation } from "../context/cache-miss/explain-cache-miss.js";
import { composeContextPolicies } from "../context/compose-context-policies.js";
import { createPrefixGuard, type PrefixGuard } from "../context/prefix-guard/index.js";
import { createMemoryBlobStore } from "../context/memory-blob-store.js";
import { getTokenCounter } from "../tokens/get-token-counter.js";
import { createQwen3PromptTokens } from "../tokens/prompt-tokens.js";
import type { Provider } from "../providers/provider.js";
import { checkProviderContract } from "../providers/check-provider-contract.js";
import { checkAgentOptions } from "./check-agent-options.js";
import type { StablePrefix } from "../context/stable-prefix.js";
import { resolveAgentPrefix } from "./resolve-agent-prefix.js";
import type { Tool } from "../tools/tool.js";
import { compileArgumentValidators } from "../tools/validate-tool-arguments.js";
import { validateToolDefinitions } from "../tools/validate-tool-definitions.js";
import { ConfigError, UsageError, type Message, type UserMessage } from "../types/index.js";
import type { AgentOptions } from "./agent-options.js";
import { countToolCalls, type LoopState } from "./loop-state.js";
import { observationOfRecordedCall } from "./observe-cache-miss.js";
import { runAgentLoop } from "./run-agent-loop.js";
import { createRunHandle, type RunHandle } from "./run-handle.js";

export interface RunOptions {
  signal?: AbortSignal;
  /**
   * Compact on the provider's side in this run's first call (a `/compact` command): Anthropic's
   * `compact_20260112` goes out with the API's lowest trigger (50 000 input tokens), so a prompt past
   * it is summarised into a `compaction` block, kept byte-exact and sent back. With
   * `pauseAfterCompaction` the server stops after the summary and `createResumeAfterCompaction`
   * goes on with the turn; `createServerCompactionPolicy` then drops what the summary covers as a
   * declared break. Needs a provider with `compactsOnRequest` (`createAnthropic`).
   */
  compact?: true | { instructions?: string };
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
  /**
   * The reasoning effort of the calls from the next one on (a chat's `/effort`), over the
   * provider's setting; undefined goes back to it. Recorded per call in the session: a prompt-cache
   * miss right after a change is named `effort_changed`. Throws `ConfigError` (`option_invalid`)
   * at once for an effort the provider does not take (its `reasoningEfforts`).
   */
  setReasoningEffort(effort: string | undefined): void;
}

/**
 * Creates an agent. Misuse fails here, before any model call: invalid tool names or schemas,
 * duplicate tools. Tools are sorted and frozen once, so requests keep a byte-stable prefix.
 */
export function createAgent(options: AgentOptions): Agent {
  checkAgentOptions(options);
  checkProviderContract(options.provider);
  const policy = composeContextPolicies(...(options.context ?? []));
  // Deferred tools are validated and runnable like the others; only the prefix leaves them out.
  const tools = [...(options.tools ?? []), ...(policy.tools ?? [])];
  validateToolDefinitions(tools);
  checkDeferredToolsAreRouted(tools, policy.members);
  // Compiled on each tool's first call: the agent's start does not load ajv for tools never called.
  const validators = compileArgumentValidators(tools, { eager: false });
  const prefix = resolveAgentPrefix({ system: options.system, tools: options.tools ?? [], context: policy.members });
  // Definitions a provider searches on its side (native tool search) go with every request.
  const deferredTools = policy.deferredTools && policy.deferredTools.length > 0 ? policy.deferredTools : undefined;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one map
  const toolsByName = new Map<string, Tool<any>>(tools.map((tool) => [tool.name, tool]));
  const runtime = options.runtime ?? {};
  const clock = runtime.clock ?? (() => new Date());
  const createId = runtime.createId ?? defaultIdGenerator();
  const trajectory: Message[] = [...(options.messages ?? [])];
  let running = false;
  let reasoningEffort: string | undefined;

  const state: LoopState = {
    options,
    policy,
    blobStore: runtime.blobStore ?? createMemoryBlobStore(),
    replaced: new Map((runtime.messageLog ?? []).map((message) => [message.meta.id, message])),
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
    // A resumed session's last call, so the first call after the resume has something to compare with.
    ...(runtime.previousCall === undefined ? {} : withObservation(observationOfRecordedCall(runtime.previousCall, options.provider))),
    buildRequest: (tail?: UserMessage) => {
      const settings = reasoningEffort === undefined ? options.settings : { ...options.settings, reasoningEffort };
      return buildModelRequest({ prefix, trajectory, ...(tail ? { tail } : {}), ...(settings ? { settings } : {}), ...(deferredTools ? { deferredTools } : {}) });
    },
  };

  return {
    run(input, runOptions = {}) {
      return createRunHandle(async function* () {
        if (running) throw new UsageError("agent_busy", "This agent is already running; await the current run's result() (or abort it) before calling run() again, or create a second agent.");
        // Plain JavaScript can pass anything: a non-string became the user message's content (with a session, the writer's session_write_refused about a run_start record).
        if (typeof input !== "string") throw new UsageError("run_input_invalid", `agent.run() takes the person's message as a string; got ${input === null ? "null" : Array.isArray(input) ? "an array" : typeof input}.`);
        if (runOptions.compact !== undefined && options.provider.compactsOnRequest !== true) {
          throw new UsageError(
            "server_compaction_unsupported",
            `Provider '${options.provider.name}' does not compact on its side on request. Use createAnthropic, or compact in ctxkit (createCompression; createResponsesCompactPolicy for OpenAI's /responses/compact).`,
          );
        }
        running = true;
        state.serverCompaction = runOptions.compact === undefined ? undefined : runOptions.compact === true ? {} : { ...runOptions.compact };
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
    setReasoningEffort(effort) {
      const accepted = options.provider.reasoningEfforts;
      if (effort !== undefined && accepted !== undefined && !accepted.includes(effort)) {
        throw new ConfigError("option_invalid", `setReasoningEffort: provider '${options.provider.name}' takes the efforts ${accepted.join(", ")}, got ${JSON.stringify(effort)}.`);
      }
      if (effort === reasoningEffort) return;
      const from = reasoningEffort ?? options.provider.reasoningEffort ?? "the provider's";
      reasoningEffort = effort;
      // The effort is part of the request: the change is intended, so the prefix guard records it as declared.
      state.declaredBreak = { reason: `reasoning effort changed (${from} → ${effort ?? options.provider.reasoningEffort ?? "the provider's"})` };
    },
  };
}

function withObservation(observation: CacheCallObservation | undefined): Pick<LoopState, "lastCacheObservation"> {
  return observation === undefined ? {} : { lastCacheObservation: observation };
}

/** A deferred tool is left out of the prefix; without a policy that routes calls (tool search) the model could never reach it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type
function checkDeferredToolsAreRouted(tools: readonly Tool<any>[], members: readonly { routeToolCall?: unknown }[]): void {
  const deferred = tools.filter((tool) => tool.deferred === true);
  if (deferred.length === 0 || members.some((member) => member.routeToolCall !== undefined)) return;
  throw new ConfigError(
    "option_invalid",
    `The tool${deferred.length > 1 ? "s" : ""} ${deferred.map((tool) => `'${tool.name}'`).join(", ")} ${deferred.length > 1 ? "are" : "is"} deferred, but no context policy routes tool calls to ${deferred.length > 1 ? "them" : "it"}. Use assembleAgent, or pass resolveDeferredTools({ tools, context }) (ctxkit/tools) to createAgent.`,
  );
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
