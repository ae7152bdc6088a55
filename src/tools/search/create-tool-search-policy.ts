import type { ContextPolicy, ToolCallRoute } from "../../context/context-policy.js";
import type { PolicyWarning } from "../../context/policy-gates.js";
import { createStablePrefix } from "../../context/stable-prefix.js";
import { toolCallsOf, type Message, type Tool, type ToolCallPart, type ToolDefinition, type ToolMessage, type UserMessage } from "../../types/index.js";
import { createCallToolProxy, unwrapProxyCall } from "./create-call-tool-proxy.js";
import { createToolSearchTool, maxToolSearchLimit, type ToolSearchArgs } from "./create-tool-search-tool.js";
import { createToolCatalog, type ToolCatalog, type ToolCatalogOptions } from "./tool-catalog.js";
import type { LateToolSet } from "./late-tool-set.js";
import { callToolName, createDiscoveryMessage, createToolSearchCheckpoint, discoveredToolNames, toolSearchPolicyName, toolSearchToolName } from "./tool-discovery.js";

export interface ToolSearchPolicyOptions extends ToolCatalogOptions {
  /** Matches per search when the model does not say (default 5). */
  limit?: number;
  /**
   * The provider searches on its side (Anthropic's tool-search server tool with `defer_loading`):
   * no `tool_search`/`call_tool` here, the deferred definitions go in `deferredDefinitions` for the
   * provider, and the model calls found tools directly.
   */
  native?: boolean;
  /**
   * Tools that may appear mid-session (an MCP server's `list_changed`): with it, `tool_search` and
   * `call_tool` are in `tools` from the first call even when nothing is deferred yet, tools added
   * later are searched and called through `call_tool` (checked against their schema on the first
   * call), and removed ones answer with an error result. Natively, only `call_tool` is added.
   */
  lateTools?: LateToolSet;
}

/** The tool-search policy, with the catalog of deferred tools it serves. */
export interface ToolSearchPolicy extends ContextPolicy {
  readonly catalog: ToolCatalog;
  readonly native: boolean;
  /** The deferred tools' definitions, sorted and frozen like the prefix's (sent by a native provider). */
  readonly deferredDefinitions: readonly ToolDefinition[];
  /** Deferred tools whose definitions are in a context. */
  discovered(messages: readonly Message[]): string[];
}

/**
 * Deferred tools and tool search as one context policy. Deferred tools stay out of `tools`; the
 * model finds them with `tool_search`, and their full definitions are appended to the trajectory
 * as one message after the result (never inserted into `tools`, so the prefix stays byte-stable).
 * A tool already discovered is not appended again. Found tools are called through the stable
 * `call_tool` proxy (or directly), routed before validation so they are checked, confirmed, hooked
 * and timed exactly like a direct call; a deferred tool not discovered yet gets an error result
 * that says to search first.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
export function createToolSearchPolicy(deferred: readonly Tool<any>[], options: ToolSearchPolicyOptions = {}): ToolSearchPolicy {
  const late = options.lateTools;
  // A search that cannot read its related words, or whose embedding model fails, goes on without
  // them; the caller hears of it as a `warning` event after the next model call, instead of the run
  // failing on its first search.
  const warnings: PolicyWarning[] = [];
  const catalog = createToolCatalog(
    deferred,
    {
      ...options,
      onWarning: (warning) => {
        warnings.push(warning);
        options.onWarning?.(warning);
      },
    },
    late,
  );
  const limit = Math.min(Math.max(1, options.limit ?? 5), maxToolSearchLimit);
  const native = options.native === true;
  // Matches of tool_search calls of this process, by call id (a processor that dropped the result's meta cannot lose them).
  const found = new Map<string, string[]>();
  const deferredDefinitions = createStablePrefix("", deferred).tools;

  const route = (call: ToolCallPart, messages: readonly Message[]): ToolCallRoute | undefined => {
    if (call.name !== callToolName) {
      if (late?.removed.has(call.name)) return removed(call.name);
      if (native || !catalog.has(call.name)) return undefined;
      // The tool itself goes with the call: one added mid-session is not among the agent's tools.
      if (discoveredToolNames(messages).has(call.name)) return { type: "call", call, tool: catalog.get(call.name)! };
      return notDiscovered(call.name);
    }
    const unwrapped = unwrapProxyCall(call);
    if (unwrapped.type === "error") return unwrapped;
    const target = unwrapped.call.name;
    if (late?.removed.has(target)) return removed(target);
    if (!catalog.has(target)) {
      return {
        type: "error",
        kind: "unknown_tool",
        message: `'${target}' is not a tool ${toolSearchToolName} can find. Call tools listed in your tools directly; search with ${toolSearchToolName} for others.`,
      };
    }
    if (!native && !discoveredToolNames(messages).has(target)) return notDiscovered(target);
    return { ...unwrapped, tool: catalog.get(target)! };
  };
  const ownTools = native
    ? late ? [createCallToolProxy()] : []
    : catalog.tools.length === 0 && !late ? [] : [createToolSearchTool(catalog, limit, found), createCallToolProxy()];

  const policy: ToolSearchPolicy = {
    name: toolSearchPolicyName,
    // Before skills (-50): a discovery is appended right after its result, like a skill body.
    order: -60,
    tools: ownTools,
    ...(native ? { deferredTools: deferredDefinitions } : {}),
    // A fork sends its parent's tools and routes the same deferred ones; an isolated child has its own tools.
    inherit: "copy",
    forChild: (child) => (child.kind === "fork" ? policy : undefined),
    catalog,
    native,
    deferredDefinitions,
    discovered: (messages) => [...discoveredToolNames(messages)].sort(),
    routeToolCall: (call, info) => route(call, info.messages),
    afterCall: () => (warnings.length === 0 ? undefined : warnings.splice(0)),
    prepareContext(state) {
      if (native) return undefined;
      const messages = pendingDiscoveries(state.messages, catalog, limit, found, state.now);
      return messages.length === 0 ? undefined : [{ type: "append", messages }];
    },
    checkpoint(messages, now, id) {
      if (native) return undefined;
      const names = [...discoveredToolNames(messages)].filter((name) => catalog.has(name));
      const frozen = createStablePrefix("", names.map((name) => catalog.get(name)!)).tools;
      return createToolSearchCheckpoint(names.map((name) => frozen.find((definition) => definition.name === name)!), id, now);
    },
  };
  return policy;
}

function removed(name: string): ToolCallRoute {
  return { type: "error", kind: "unknown_tool", message: `The tool '${name}' is no longer available: its server removed it during this session. Do not call it again.` };
}

function notDiscovered(name: string): ToolCallRoute {
  return {
    type: "error",
    kind: "unknown_tool",
    message: `'${name}' is not loaded yet. Call ${toolSearchToolName} first (e.g. {"query": "${name.replaceAll("_", " ")}"}); its definition is then added to the conversation and you can call it through ${callToolName}.`,
  };
}

/**
 * Discovery messages owed to the latest turn's `tool_search` calls: the matches not yet discovered,
 * one message per call that found something new. The matches are the names the result recorded
 * (`meta.toolSearch`), so a restart, a durable replay or an overflow retry defines exactly the tools
 * the stored result promised, whatever an embedding model would answer now. A result written before
 * the names were recorded is searched again by words only (the same for the same query and catalog).
 */
function pendingDiscoveries(messages: readonly Message[], catalog: ToolCatalog, limit: number, found: Map<string, string[]>, now: Date): UserMessage[] {
  const turnStart = messages.findLastIndex((message) => message.role === "assistant");
  if (turnStart === -1) return [];
  const calls = toolCallsOf(messages[turnStart] as Extract<Message, { role: "assistant" }>).filter((call) => call.name === toolSearchToolName);
  if (calls.length === 0) return [];
  const after = messages.slice(turnStart + 1);
  const known = discoveredToolNames(messages);
  const pending: UserMessage[] = [];
  for (const call of calls) {
    const result = after.find((message): message is ToolMessage => message.role === "tool" && message.toolCallId === call.id);
    if (!result || result.isError) continue;
    const names = result.meta.toolSearch?.names ?? found.get(call.id) ?? searchWordsOnly(catalog, call, limit);
    found.delete(call.id);
    const fresh = names.filter((name) => !known.has(name) && catalog.has(name));
    if (fresh.length === 0) continue;
    for (const name of fresh) known.add(name);
    const definitions = createStablePrefix("", fresh.map((name) => catalog.get(name)!)).tools;
    // Keep the search's rank order (the model reads the best match first).
    const ordered = fresh.map((name) => definitions.find((definition) => definition.name === name)!);
    pending.push(createDiscoveryMessage(ordered, call.id, `${result.meta.id}~tools`, now));
  }
  return pending;
}

/** A stored result without recorded names (an older session): its query searched again by words alone. */
function searchWordsOnly(catalog: ToolCatalog, call: ToolCallPart, limit: number): string[] {
  const args = call.arguments as Partial<ToolSearchArgs> | undefined;
  if (typeof args?.query !== "string") return [];
  return catalog.search(args.query, typeof args.limit === "number" ? Math.min(args.limit, maxToolSearchLimit) : limit).map((hit) => hit.name);
}
