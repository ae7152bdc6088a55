import type { Message, Tool, ToolRisk } from "../types/index.js";
import { describeContextTaint, findContextTaint, systemPromptId, toolDefinitionsId, type ContextTaintSource } from "./context-taint.js";
import { describeTaintFinding, findTaint, type TaintFinding } from "./find-taint.js";
import { hashToolCall } from "./hash-tool-call.js";

/** What the guard is told about one call (the loop's `ToolCallInfo` has these fields). */
export interface GuardedCall {
  name: string;
  arguments: unknown;
}

export interface RuntimeGuardContext {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type
  tool: Tool<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type
  tools: ReadonlyMap<string, Tool<any>>;
  messages: readonly Message[];
  /** The system prompt's text. */
  system: string;
}

/** Why a call needs the person's confirmation whatever approves it otherwise, and what the approval is bound to. */
export interface GuardVerdict {
  reasons: string[];
  /** Data-flow evidence: material in the arguments that appeared only in untrusted content. */
  findings: TaintFinding[];
  /** The untrusted content in the context when the call was made (empty when only `findings` flagged it). */
  taint: ContextTaintSource[];
  /** `hashToolCall(name, arguments)`: an approval counts only for this exact call. */
  argumentsHash: string;
}

export type RuntimeGuard = (call: GuardedCall, context: RuntimeGuardContext) => GuardVerdict | undefined;

export interface RuntimeGuardOptions {
  /** Risk levels whose calls are checked (default write, exec, send: every tool that is not read-only). */
  risks?: readonly ToolRisk[];
  /** Tools whose results count as external whatever they declare (the CLI's `externalTools`). */
  externalTools?: readonly string[];
  /**
   * Ask about every checked call while untrusted content is in the context, not only calls whose
   * arguments match it (default true; issue 24). Off, only the data-flow match asks.
   */
  contextTaint?: boolean;
  /**
   * Tools the person lets run while the context is untrusted (the user's own `allowUnderTaint`; a
   * workspace config may not set it). A call whose arguments match untrusted text is still asked about.
   */
  allowUnderTaint?: readonly string[];
  /**
   * Tools whose definitions (description, annotations) came from a party the user has not trusted,
   * such as a workspace's MCP server: while they are offered, their text is in the context, so the
   * context is untrusted from the first call.
   */
  untrustedTools?: readonly string[];
  /**
   * Parts of the system prompt from a party the user has not trusted, by name (the CLI's: an untrusted
   * workspace's AGENTS.md, its skills' catalog entries): they are in the context from the first call,
   * so it is untrusted from the first call too.
   */
  untrustedSystemSources?: readonly string[];
}

/**
 * The execution-level defence (the seed's independent review of high-risk operations). While the
 * context holds untrusted content — a page, an MCP result, an untrusted workspace's files, a child's
 * answer built on them, or a summary, recall or note derived from any of these (read from message
 * metadata, see `findContextTaint`) — every call of a tool that is not read-only gets a verdict. The
 * loop then asks the confirmation handler even where nothing would ask (an `allow` rule, `--yes`),
 * refuses when there is none, and accepts only an approval carrying this call's `argumentsHash`.
 * Material in the arguments that appeared only in untrusted content (`findTaint`) is shown as evidence.
 */
export function createRuntimeGuard(options: RuntimeGuardOptions = {}): RuntimeGuard {
  const risks = new Set(options.risks ?? ["write", "exec", "send"]);
  const externalTools = new Set(options.externalTools ?? []);
  const allowUnderTaint = new Set(options.allowUnderTaint ?? []);
  const contextTaint = options.contextTaint ?? true;
  return (call, context) => {
    const risk: ToolRisk = context.tool.risk ?? (context.tool.parallelSafe === true ? "read" : "write");
    if (!risks.has(risk)) return undefined;
    const isExternalTool = (toolName: string) => externalTools.has(toolName) || context.tools.get(toolName)?.source === "external";
    const offered = [...(options.untrustedTools ?? [])].filter((name) => context.tools.has(name));
    const taint = contextTaint
      ? [
          ...offered.map((name) => ({ source: `the ${name} tool's definition`, trust: "external" as const, messageId: toolDefinitionsId })),
          ...(options.untrustedSystemSources ?? []).map((source) => ({ source, trust: "workspace" as const, messageId: systemPromptId })),
          ...findContextTaint(context.messages, { isExternalTool }),
        ]
      : [];
    const findings = findTaint({
      args: call.arguments,
      messages: context.messages,
      systemText: context.system,
      // Tagged workspace results (an untrusted repository) are data to the model but still the user's
      // workspace: paths found there are legitimate targets, so they are not data-flow evidence (the
      // context taint covers them).
      isExternalResult: (message) => {
        // The tag records this result's own source (a sub-agent's answer is external when the child
        // read from outside, whatever the `task` tool's static source says).
        const tagged = message.meta.external?.trust;
        if (tagged !== undefined) return tagged === "external";
        const source = externalTools.has(message.toolName) ? "external" : context.tools.get(message.toolName)?.source;
        return source === "external" || (source === undefined && message.meta.external !== undefined) || message.meta.provenance?.untrusted.some((entry) => entry.trust === "external") === true;
      },
    });
    const tainted = taint.length > 0 && !allowUnderTaint.has(call.name);
    if (!tainted && findings.length === 0) return undefined;
    const reasons = [
      ...(tainted ? [`the conversation holds content from ${describeContextTaint(taint)}, so a call that is not read-only needs your confirmation of this exact call`] : []),
      ...findings.map((finding) => `argument matches text from ${finding.toolName} result #${finding.resultNumber}: ${describeTaintFinding(finding)}`),
    ];
    return { reasons, findings, taint: tainted ? taint : [], argumentsHash: hashToolCall(call.name, call.arguments) };
  };
}
