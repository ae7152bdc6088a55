import { basename } from "node:path";
import type { ContextPolicy } from "../context/context-policy.js";
import type { ToolCallVerdict } from "../context/policy-gates.js";
import type { Tool } from "./tool.js";

export const toolApprovalsPolicyName = "tool-approvals";

/** The workspace config file's name (see the CLI's resolve-config.ts). */
const workspaceConfigName = "ctxkit.config.json";

/**
 * Why a call that names the workspace config is asked about under `--yes`, `allow` and "always":
 * a confirmation prompt shows it as the call's warning.
 */
export const workspaceConfigReason = "This call changes ctxkit.config.json, ctxkit's own settings for this workspace";

export interface ToolApprovalsOptions {
  /** Tools whose calls run without asking (the `allow` setting; the CLI reads it from the user's config only). */
  allow?: readonly string[];
  /** Every call runs without asking (`--yes`, the `yes` setting). */
  approveAll?: boolean;
}

/**
 * Who decides whether a tool that asks for confirmation (writes, bash) runs without asking: `allow`
 * names tools approved in advance, `approveAll` approves all of them. A call whose arguments name
 * ctxkit.config.json is asked about even so — a config file the agent wrote could enable bash or move
 * the sessions on the next run — and "always" does not cover it either. An `ask` from another policy
 * (the runtime guard's exact-call approval) still asks: no rule here approves it. Stateless, so a
 * child shares it and gets the same gating.
 */
export function createToolApprovals(options: ToolApprovalsOptions = {}): ContextPolicy {
  const allow = new Set(options.allow ?? []);
  return {
    name: toolApprovalsPolicyName,
    inherit: "share",
    onToolCall({ call, tool }): ToolCallVerdict {
      if (!needsConfirmation(tool, call.arguments)) return { action: "allow" };
      // A file tool's path is also checked by where it resolves (the protected-paths policy asks with an exact
      // approval); here its file name, and a command that names the file anywhere, err on the side of asking.
      if (mentionsWorkspaceConfig(call.arguments, call.argumentsText)) {
        return { action: "ask", reasons: [workspaceConfigReason], exact: false, refusal: ({ said, hasHandler }) => declined(call.name, said, hasHandler) };
      }
      return options.approveAll === true || allow.has(call.name) ? { action: "allow", approved: true } : { action: "allow" };
    },
  };
}

/** The model's result for a declined call: the loop's words for any declined confirmation. */
function declined(toolName: string, said: string | undefined, hasHandler: boolean): string {
  if (!hasHandler) return `'${toolName}' needs the user's approval and no approval handler is configured, so it was not run.`;
  return said ? `The user declined this call to '${toolName}' and said: ${said}` : `The user declined this call to '${toolName}'. Ask the user how to proceed or try another approach.`;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type
function needsConfirmation(tool: Tool<any>, args: unknown): boolean {
  const rule = tool.requiresConfirmation;
  return typeof rule === "function" ? rule(args) : rule === true;
}

/** Whether a call's arguments name the workspace config: a `path` argument's file name (any case), or the name anywhere else. */
function mentionsWorkspaceConfig(args: unknown, argumentsText: string): boolean {
  const path = args !== null && typeof args === "object" ? (args as Record<string, unknown>).path : undefined;
  if (typeof path === "string") return basename(path).toLowerCase() === workspaceConfigName;
  return argumentsText.includes(workspaceConfigName);
}
