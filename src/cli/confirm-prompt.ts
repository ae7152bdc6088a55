import { createInterface } from "node:readline";
import { escapeForTerminal } from "../context/escape-for-terminal.js";
import type { ToolCallInfo } from "../loop/agent-options.js";
import type { TerminalStyle } from "./terminal-style.js";

/** The workspace config file's name (see resolve-config.ts). */
const workspaceConfigName = "ctxkit.config.json";

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
    const touchesConfig = mentionsWorkspaceConfig(call.argumentsText);
    // A config file the agent wrote could enable bash or move the sessions on the next run, so such a
    // call is always asked about, under --yes and `allow` too, and the question says why.
    if (!touchesConfig && (policy.approveAll || policy.allow.includes(call.name))) return true;
    const warning = touchesConfig
      ? `\n  ${policy.style.red("This call changes ctxkit.config.json, ctxkit's own settings for this workspace")} ` +
        "(tools it may use, where sessions are stored); --yes and allow do not cover it."
      : "";
    policy.output.write(
      `\n${policy.style.yellow("?")} Allow ${policy.style.bold(escapeForTerminal(call.name))} ${formatArguments(call.argumentsText)}${warning}\n  [y]es / [n]o: `,
    );
    const answer = await policy.readLine();
    const approved = answer !== undefined && /^(y|yes)$/i.test(answer.trim());
    policy.output.write(approved ? "  approved\n" : "  declined\n");
    return approved;
  };
}

/**
 * Whether a guarded call's arguments name the workspace config: a path argument of write_file or
 * edit_file, or a bash command that writes it. Matching the name anywhere errs on the side of asking.
 */
function mentionsWorkspaceConfig(argumentsText: string): boolean {
  return argumentsText.includes(workspaceConfigName);
}

/** The arguments as the model wrote them, with controls, bidi and invisible characters escaped. */
function formatArguments(argumentsText: string): string {
  try {
    return escapeForTerminal(JSON.stringify(JSON.parse(argumentsText), null, 2), { keepLineBreaks: true }).replace(/\n/g, "\n  ");
  } catch {
    return escapeForTerminal(argumentsText);
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
