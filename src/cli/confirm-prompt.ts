import { createInterface } from "node:readline";
import type { ToolCallDecision, ToolCallInfo } from "../loop/agent-options.js";
import { describeToolCall } from "./describe-tool-call.js";
import type { TerminalStyle } from "./terminal-style.js";

export interface ConfirmationPolicy {
  /** Approve everything (--yes). */
  approveAll: boolean;
  /** Tools approved without asking (config `allow`). */
  allow: readonly string[];
  /** Reads the person's answer (shared with the chat prompt so both read one stream). */
  readLine: () => Promise<string | undefined>;
  output: NodeJS.WritableStream;
  style: TerminalStyle;
  /** The workspace, to show a diff against the file as it is now. */
  workspace: string;
  /** Told of every call declined because no answer could be read (input closed, no terminal). */
  onUnanswered?: (call: ToolCallInfo) => void;
}

export const confirmationChoices = "[y]es / [n]o / [a]lways for this session / n <reason> to say why";

/**
 * Builds the approval handler for guarded tools (writes, bash). The prompt shows what will happen —
 * a diff for file writes, the command for bash — and takes yes, no, always (this tool, for the rest
 * of the session) or no with a reason that is passed to the model. Anything else asks again. When
 * input is closed (no terminal, no piped answer) the call is declined, never silently run.
 */
export function createConfirmationHandler(policy: ConfirmationPolicy): (call: ToolCallInfo) => Promise<ToolCallDecision> {
  const alwaysAllowed = new Set<string>();
  const { style, output } = policy;
  return async (call) => {
    if (policy.approveAll || policy.allow.includes(call.name) || alwaysAllowed.has(call.name)) return { approved: true };
    output.write(`\n${style.yellow("?")} Allow ${style.bold(call.name)}?\n${describeToolCall(call, policy.workspace, style)}\n`);
    while (true) {
      output.write(`  ${confirmationChoices}: `);
      const answer = await policy.readLine();
      if (answer === undefined) {
        output.write(`\n  declined (no answer could be read)\n`);
        policy.onUnanswered?.(call);
        return { approved: false };
      }
      const decision = parseAnswer(answer);
      if (decision === "always") {
        alwaysAllowed.add(call.name);
        output.write(`  approved; ${call.name} will not ask again this session\n`);
        return { approved: true };
      }
      if (decision) {
        output.write(decision.approved ? "  approved\n" : `  declined${decision.reason ? " (your reason goes to the model)" : ""}\n`);
        return decision;
      }
      output.write(`  ${style.dim("Please answer y, n, a, or n followed by a reason.")}\n`);
    }
  };
}

function parseAnswer(answer: string): ToolCallDecision | "always" | undefined {
  const text = answer.trim();
  if (/^(y|yes)$/i.test(text)) return { approved: true };
  if (/^(a|always)$/i.test(text)) return "always";
  if (/^(n|no)$/i.test(text)) return { approved: false };
  const withReason = /^(?:n|no)(?:[\s,:;-]+)(.+)$/is.exec(text);
  if (withReason) return { approved: false, reason: withReason[1]!.trim() };
  return undefined;
}

/** Reads one line per `next()` call; resolves undefined once input has ended. */
export function lineReader(input: NodeJS.ReadableStream): { next(): Promise<string | undefined>; close(): void } {
  const lines: string[] = [];
  const waiting: Array<(line: string | undefined) => void> = [];
  let closed = false;
  let reader: ReturnType<typeof createInterface> | undefined;
  const ensureReader = () => {
    if (reader) return;
    reader = createInterface({ input, terminal: false });
    reader.on("line", (line) => {
      const resolve = waiting.shift();
      if (resolve) resolve(line);
      else lines.push(line);
    });
    reader.on("close", () => {
      closed = true;
      for (const resolve of waiting.splice(0)) resolve(undefined);
    });
  };
  return {
    next() {
      ensureReader();
      const line = lines.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (closed) return Promise.resolve(undefined);
      return new Promise((resolve) => waiting.push(resolve));
    },
    close() {
      reader?.close();
    },
  };
}
