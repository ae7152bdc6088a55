import type { ContextPolicy } from "../context/context-policy.js";
import { createAgent, type Agent } from "../loop/create-agent.js";
import type { AgentOptions, AgentRuntime } from "../loop/agent-options.js";
import { policySectionsStart, policySystemSection, resolveAgentPrefix } from "../loop/resolve-agent-prefix.js";
import type { Provider } from "../providers/provider.js";
import type { SessionStore, SessionWarning, SessionWriter } from "../session/index.js";
import type { RecordedCall } from "../session/session-spend.js";
import { startSession } from "../session/start-session.js";
import { createRepeatedCallLimit, repeatedCallLimitPolicyName } from "../tools/create-repeated-call-limit.js";
import { createToolOutputCap, toolOutputCapPolicyName } from "../tools/create-tool-output-cap.js";
import type { DeferToolsMode, DeferToolsSettings } from "../tools/search/apply-defer-tools.js";
import type { ToolSearchPolicyOptions } from "../tools/search/create-tool-search-policy.js";
import { resolveDeferredTools } from "../tools/search/resolve-deferred-tools.js";
import type { Tool } from "../tools/tool.js";
import { ConfigError, type Message, type SystemPrompt } from "../types/index.js";
import { withoutPolicySections } from "./without-policy-sections.js";

/** Where the agent's session lives and whether it starts, resumes a given id, or continues the latest. */
export interface AssembleSessionOptions {
  store: SessionStore;
  mode: "new" | "resume" | "continue";
  /** The session to resume (`mode: "resume"`). */
  id?: string;
  /** Recorded in a new session's header (an absolute path). */
  workspace?: string;
  /** Resume a damaged session after rewriting it (see `startSession`'s `repair`). */
  repair?: boolean;
}

/** What policies made after the session started are given: the session's id, what it spent and its log. */
export interface StartedSessionView {
  id: string | undefined;
  resumed: boolean;
  /** The model calls the session recorded: what a budget continues from (`sessionSpend(calls)`). */
  calls: readonly RecordedCall[];
  log: readonly Message[];
}

export interface AssembleAgentOptions extends Pick<AgentOptions, "provider" | "settings" | "confirmToolCall" | "prefixGuard"> {
  /** The base system prompt, without any policy's section (a resumed session's stored one is accepted too). */
  system: string | SystemPrompt;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
  tools?: readonly Tool<any>[];
  /** Everything that shapes or gates the context, in any order (the composer orders them). */
  policies?: readonly ContextPolicy[];
  /**
   * Policies that need the started session (a budget continuing from what it spent, its status
   * line): made once it is open. They may not add tools or system sections — the prefix is decided
   * before the session starts — and adding one that does throws.
   */
  sessionPolicies?: (session: StartedSessionView) => readonly ContextPolicy[];
  session?: AssembleSessionOptions;
  /**
   * The context a new agent starts from (a fork's copy of its parent's trajectory); a new session
   * records it first, so its requests can be rebuilt from the file alone. A resumed session brings its own.
   */
  messages?: readonly Message[];
  /** Which tools are kept out of `tools` and found with `tool_search` (see `applyDeferTools`). */
  deferTools?: DeferToolsMode | DeferToolsSettings;
  toolSearch?: ToolSearchPolicyOptions;
  /**
   * The loop's safety nets as policies: the tool-output cap (1 000 000 characters) and the
   * repeated-call limit (3), each unless `policies` has one of that name. Default true.
   */
  defaults?: boolean;
  runtime?: Omit<AgentRuntime, "messageLog">;
}

export interface AssembledAgent {
  agent: Agent;
  session: SessionWriter | undefined;
  resumed: boolean;
  warnings: SessionWarning[];
  /** Every policy the agent runs with, in the order given (the defaults and tool search included). */
  policies: readonly ContextPolicy[];
}

/**
 * The one assembly step: provider, base system prompt, tools, policies and a session in, a running
 * agent out. Deferred tools get tool search, the prefix is computed once, the session is started or
 * resumed so the next request continues its bytes, the session's log goes to the agent (for
 * `recall` of originals), and policies that need the started session are made then. The CLI
 * (`run`, `chat`, `demo`), the sub-agent `task` tool and the benches all build agents through it.
 */
export async function assembleAgent(options: AssembleAgentOptions): Promise<AssembledAgent> {
  checkAssembleOptions(options);
  const given = [...(options.policies ?? []), ...(options.defaults === false ? [] : defaultPolicies(options.policies ?? []))];
  const resolved = resolveDeferredTools({
    tools: options.tools ?? [],
    context: given,
    ...(options.deferTools ? { deferTools: options.deferTools } : {}),
    ...(options.toolSearch ? { toolSearch: options.toolSearch } : {}),
    nativeToolSearch: options.provider.nativeToolSearch === true,
  });
  const { tools, context } = resolved;
  // A resumed session's stored prompt already holds the policies' sections; they are added once.
  const section = policySystemSection({ tools, context });
  const system = withoutPolicySections(options.system, section);
  const prefix = resolveAgentPrefix({ system, tools, context });
  const started = options.session ? await openSession(options.session, options, prefix, policySectionsStart(system, section)) : undefined;
  if (started && !started.resumed) for (const message of options.messages ?? []) started.session.appendMessage(message);
  const messages = started?.resumed ? started.messages : [...(options.messages ?? [])];
  const view: StartedSessionView = { id: started?.session.id, resumed: started?.resumed ?? false, calls: started?.calls ?? [], log: started?.log ?? [] };
  const late = options.sessionPolicies?.(view) ?? [];
  const changesPrefix = late.find((policy) => (policy.tools?.length ?? 0) > 0 || policy.system !== undefined);
  if (changesPrefix) {
    await started?.session.close().catch(() => undefined);
    throw new ConfigError("option_invalid", `The session policy '${changesPrefix.name}' adds tools or a system section, which the prefix decided before the session started cannot hold. Pass it in \`policies\` instead.`);
  }
  const policies = [...context, ...late];
  const blobStore = options.runtime?.blobStore ?? options.session?.store.blobs;
  const agent = createAgent({
    provider: options.provider,
    system,
    tools,
    context: policies,
    messages,
    ...(started ? { session: started.session } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.confirmToolCall ? { confirmToolCall: options.confirmToolCall } : {}),
    ...(options.prefixGuard !== undefined ? { prefixGuard: options.prefixGuard } : {}),
    // The session's log and blobs: `recall` finds originals from before a restart.
    runtime: {
      ...options.runtime,
      ...(started ? { messageLog: started.log } : {}),
      ...(blobStore ? { blobStore } : {}),
      ...(started?.lastCall ? { previousCall: started.lastCall } : {}),
    },
  });
  return { agent, session: started?.session, resumed: started?.resumed ?? false, warnings: started?.warnings ?? [], policies };
}

/** Misuse from plain JavaScript (or a cast) named in the caller's terms, before a TypeError deep inside could. */
function checkAssembleOptions(options: AssembleAgentOptions): void {
  if (options === null || typeof options !== "object" || options.provider === null || typeof options.provider !== "object") {
    throw new ConfigError("option_invalid", "assembleAgent needs `provider`: a Provider such as createOpenAICompatible({ model }) from ctxkit/providers/openai-compatible, or createScriptedProvider from ctxkit/testing.");
  }
  const session = options.session;
  if (session === undefined) return;
  if (session === null || typeof session !== "object" || session.store === null || typeof session.store !== "object") {
    throw new ConfigError("option_invalid", "assembleAgent's `session` needs `store`: a SessionStore such as createSessionStore({ directory: \".ctxkit/sessions\" }) (or leave `session` out for an agent without one).");
  }
  if (!["new", "resume", "continue"].includes(session.mode)) {
    throw new ConfigError("option_invalid", `assembleAgent's session.mode must be "new", "resume" (with id) or "continue"; got ${JSON.stringify(session.mode) ?? "undefined"}.`);
  }
}

/** The safety nets a bare `createAgent` does not add: an output cap and the repeated-call limit. */
export function defaultPolicies(given: readonly ContextPolicy[]): ContextPolicy[] {
  const names = new Set(given.map((policy) => policy.name));
  return [...(names.has(toolOutputCapPolicyName) ? [] : [createToolOutputCap()]), ...(names.has(repeatedCallLimitPolicyName) ? [] : [createRepeatedCallLimit()])];
}

async function openSession(session: AssembleSessionOptions, options: AssembleAgentOptions, prefix: ReturnType<typeof resolveAgentPrefix>, policySectionsAt: number) {
  const id = await sessionIdFor(session);
  return startSession(session.store, {
    ...(id ? { id } : {}),
    system: prefix.system,
    // Recorded, so a resume takes the sections off where they began (`storedPromptParts`).
    policySectionsAt,
    tools: prefix.tools,
    provider: options.provider,
    ...(session.workspace ? { workspace: session.workspace } : {}),
    ...(session.repair ? { repair: true } : {}),
    // The last request is rebuilt and compared byte for byte with these settings.
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.runtime?.clock ? { clock: options.runtime.clock } : {}),
  });
}

async function sessionIdFor(session: AssembleSessionOptions): Promise<string | undefined> {
  return session.mode === "new" ? undefined : chooseSessionId(session.store, { mode: session.mode, ...(session.id ? { id: session.id } : {}) });
}

/** The session to open: the id given to resume, or the latest one to continue (undefined when the store has none). */
export async function chooseSessionId(store: SessionStore, session: { mode: "resume" | "continue"; id?: string }): Promise<string | undefined> {
  if (session.mode === "resume") {
    if (!session.id) throw new ConfigError("option_invalid", "session.mode \"resume\" needs session.id: pass the id of the session to resume, or use mode \"continue\" for the latest one.");
    return session.id;
  }
  const sessions = (await store.list()).filter((summary) => summary.error === undefined);
  sessions.sort((left, right) => (left.updatedAt < right.updatedAt ? 1 : left.updatedAt > right.updatedAt ? -1 : left.id < right.id ? 1 : -1));
  return sessions[0]?.id;
}

export type { Provider };
