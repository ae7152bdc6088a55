import type { Message, Tool, ToolRisk } from "../types/index.js";
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
  findings: TaintFinding[];
  /** `hashToolCall(name, arguments)`: an approval counts only for this exact call. */
  argumentsHash: string;
}

export type RuntimeGuard = (call: GuardedCall, context: RuntimeGuardContext) => GuardVerdict | undefined;

export interface RuntimeGuardOptions {
  /** Risk levels whose calls are checked (default write, exec, send). */
  risks?: readonly ToolRisk[];
  /** Tools whose results count as external whatever they declare (the CLI's `externalTools`). */
  externalTools?: readonly string[];
}

/**
 * The execution-level defence: a call of a write, exec or send tool whose arguments carry material
 * that entered the context only through external content (see `findTaint`) gets a verdict. The
 * loop then asks the confirmation handler even where nothing would ask (an `allow` rule, `--yes`),
 * refuses when there is none, and accepts only an approval carrying this call's `argumentsHash`.
 */
export function createRuntimeGuard(options: RuntimeGuardOptions = {}): RuntimeGuard {
  const risks = new Set(options.risks ?? ["write", "exec", "send"]);
  const externalTools = new Set(options.externalTools ?? []);
  return (call, context) => {
    const risk: ToolRisk = context.tool.risk ?? (context.tool.parallelSafe === true ? "read" : "write");
    if (!risks.has(risk)) return undefined;
    const findings = findTaint({
      args: call.arguments,
      messages: context.messages,
      systemText: context.system,
      // Tagged workspace results (an untrusted repository) are data to the model but still the user's
      // workspace: paths found there are legitimate targets, so they do not taint.
      isExternalResult: (message) => {
        // The tag records this result's own source (a sub-agent's answer is external when the child
        // read from outside, whatever the `task` tool's static source says).
        const tagged = message.meta.external?.trust;
        if (tagged !== undefined) return tagged === "external";
        const source = externalTools.has(message.toolName) ? "external" : context.tools.get(message.toolName)?.source;
        return source === "external" || (source === undefined && message.meta.external !== undefined);
      },
    });
    if (findings.length === 0) return undefined;
    return { reasons: findings.map(describeTaintFinding), findings, argumentsHash: hashToolCall(call.name, call.arguments) };
  };
}
