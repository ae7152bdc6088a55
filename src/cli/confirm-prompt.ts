import { createInterface } from "node:readline";
import type { ToolCallInfo } from "../loop/agent-options.js";
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
}

/**
 * Builds the approval handler for guarded tools (writes, bash). The prompt shows the exact call —
 * tool name and the arguments as the model wrote them — so the person approves what will run.
 * When input is closed (no terminal, no piped answer) the call is declined, never silently run.
 */
export function createConfirmationHandler(policy: ConfirmationPolicy): (call: ToolCallInfo) => Promise<boolean> {
  return async (call) => {
    if (policy.approveAll || policy.allow.includes(call.name)) return true;
    policy.output.write(
      `\n${policy.style.yellow("?")} Allow ${policy.style.bold(call.name)} ${formatArguments(call.argumentsText)}\n  [y]es / [n]o: `,
    );
    const answer = await policy.readLine();
    const approved = answer !== undefined && /^(y|yes)$/i.test(answer.trim());
    policy.output.write(approved ? "  approved\n" : "  declined\n");
    return approved;
  };
}

function formatArguments(argumentsText: string): string {
  try {
    return JSON.stringify(JSON.parse(argumentsText), null, 2).replace(/\n/g, "\n  ");
  } catch {
    return argumentsText;
  }
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
