import { composeContextPolicies } from "../../context/compose-context-policies.js";
import type { ContextPolicy } from "../../context/context-policy.js";
import { ConfigError, type Tool } from "../../types/index.js";
import { applyDeferTools, type DeferToolsMode, type DeferToolsSettings } from "./apply-defer-tools.js";
import { createToolSearchPolicy, type ToolSearchPolicy, type ToolSearchPolicyOptions } from "./create-tool-search-policy.js";
import { toolSearchPolicyName } from "./tool-discovery.js";

export interface DeferredToolsInput {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
  tools?: readonly Tool<any>[];
  context?: readonly ContextPolicy[];
  /** Which of the caller's tools to defer (see `applyDeferTools`); default: only those marked `deferred`. */
  deferTools?: DeferToolsMode | DeferToolsSettings;
  /** Settings of the tool-search policy added when a tool is deferred. */
  toolSearch?: ToolSearchPolicyOptions;
  /** Whether the provider searches tools on its side (`Provider.nativeToolSearch`): the default for `toolSearch.native`. */
  nativeToolSearch?: boolean;
}

export interface DeferredTools {
  /** The caller's tools, marked `deferred` as decided. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see DeferredToolsInput.tools
  tools: Tool<any>[];
  /** The caller's policies, plus the tool-search policy when a tool is deferred and none was given. */
  context: ContextPolicy[];
  toolSearch: ToolSearchPolicy | undefined;
}

/**
 * The tools and policies an agent runs with: which tools are deferred, and — when any is, or when
 * tools may appear later (`toolSearch.lateTools`) — the tool-search policy serving them (the
 * caller's own, if the list has one). Pure; `assembleAgent` runs it before `createAgent`, so the
 * loop itself knows nothing of tool search.
 */
export function resolveDeferredTools(input: DeferredToolsInput): DeferredTools {
  const native = input.toolSearch?.native ?? input.nativeToolSearch === true;
  if (native && input.nativeToolSearch !== true) {
    throw new ConfigError("option_invalid", `toolSearch.native needs a provider that searches tools on its side (createAnthropic({ toolSearch: "bm25" })); this provider does not. Leave native off to use the tool_search/call_tool form.`);
  }
  const toolSearchOptions = { ...input.toolSearch, native };
  const tools = input.deferTools === undefined ? [...(input.tools ?? [])] : applyDeferTools(input.tools ?? [], input.deferTools).tools;
  const context = [...(input.context ?? [])];
  const members = composeContextPolicies(...context).members;
  const given = members.find((member) => member.name === toolSearchPolicyName) as ToolSearchPolicy | undefined;
  if (given) return { tools, context, toolSearch: given };
  const deferred = [...tools, ...members.flatMap((member) => member.tools ?? [])].filter((tool) => tool.deferred === true);
  // Tools that may appear later need the policy from the first call: adding it then would change `tools`.
  if (deferred.length === 0 && input.toolSearch?.lateTools === undefined) return { tools, context, toolSearch: undefined };
  const toolSearch = createToolSearchPolicy(deferred, toolSearchOptions);
  return { tools, context: [...context, toolSearch], toolSearch };
}
