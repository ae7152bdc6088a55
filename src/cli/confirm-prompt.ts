import { basename } from "node:path";
import { createInterface } from "node:readline";
import { createLineQueue } from "./line-queue.js";
import { escapeForTerminal } from "../context/escape-for-terminal.js";
import type { ToolCallInfo, ToolCallDecision } from "../loop/agent-options.js";
import { describeToolCall } from "./describe-tool-call.js";
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
  /** The workspace, to show a diff against the file as it is now. */
  workspace: string;
  /**
   * Whether a person is at a terminal (stdin is a TTY). Calls the runtime guard flagged are only
   * asked there: a piped "y" could come from anywhere, so without a terminal they are refused.
   */
  interactive?: boolean;
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
    if (call.guard) return confirmGuardedCall(call, call.guard, policy);
    // A file tool's path is also checked by where it resolves (the protected-paths policy asks with an
    // exact approval); here its file name, and a command that names the file, err on the side of asking.
    const touchesConfig = mentionsWorkspaceConfig(call.arguments, call.argumentsText);
    // A config file the agent wrote could enable bash or move the sessions on the next run, so such a
    // call is always asked about, under --yes, `allow` and "always" too, and the question says why.
    if (!touchesConfig && (policy.approveAll || policy.allow.includes(call.name) || alwaysAllowed.has(call.name))) return { approved: true };
    const warning = touchesConfig
      ? `\n  ${style.red("This call changes ctxkit.config.json, ctxkit's own settings for this workspace")} ` +
        "(tools it may use, where sessions are stored); --yes and allow do not cover it."
      : "";
    // The call is model-chosen text: controls, bidi and invisible characters are shown escaped.
    const described = escapeForTerminal(describeToolCall(call, policy.workspace, style), { keepLineBreaks: true, keepAnsi: true });
    output.write(`\n${style.yellow("?")} Allow ${style.bold(escapeForTerminal(call.name))}?${warning}\n${described}\n`);
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
        if (!touchesConfig) alwaysAllowed.add(call.name);
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

/**
 * A call the runtime guard flagged: --yes, `allow` and "always" do not cover it, and an approval is
 * bound to this exact call (its arguments' hash), so a changed argument asks again.
 */
async function confirmGuardedCall(call: ToolCallInfo, guard: NonNullable<ToolCallInfo["guard"]>, policy: ConfirmationPolicy): Promise<ToolCallDecision> {
  const { style, output } = policy;
  const why = guard.reasons.map((reason) => `\n  - ${escapeForTerminal(reason)}`).join("");
  const heading =
    `\n${style.red("!")} ${style.bold(escapeForTerminal(call.name))} needs your confirmation of this exact call ` +
    `(a page, a server or a file you have not trusted may have planted the instruction):${why}\n`;
  if (policy.interactive !== true) {
    output.write(`${heading}  refused: such a call needs your confirmation at a terminal; --yes and allow do not cover it\n`);
    policy.onUnanswered?.(call);
    return { approved: false, reason: "no terminal to confirm at (--yes and allow do not approve calls flagged by the runtime guard)" };
  }
  const described = escapeForTerminal(describeToolCall(call, policy.workspace, policy.style), { keepLineBreaks: true, keepAnsi: true });
  output.write(`${heading}${described}\n`);
  while (true) {
    output.write(`  Allow this exact call? [y]es / [n]o / n <reason>: `);
    const answer = await policy.readLine();
    if (answer === undefined) {
      output.write(`\n  declined (no answer could be read)\n`);
      policy.onUnanswered?.(call);
      return { approved: false };
    }
    const decision = parseAnswer(answer);
    if (decision) {
      // "always" approves this one call only: the next flagged call is asked about again.
      if (decision === "always" || decision.approved) {
        output.write("  approved (this call only)\n");
        return { approved: true, argumentsHash: guard.argumentsHash };
      }
      output.write(`  declined${decision.reason ? " (your reason goes to the model)" : ""}\n`);
      return decision;
    }
    output.write(`  ${style.dim("Please answer y, n, or n followed by a reason.")}\n`);
  }
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

/**
 * Whether a guarded call's arguments name the workspace config: a path argument of write_file or
 * edit_file, or a bash command that writes it. Matching the name anywhere errs on the side of asking.
 */
function mentionsWorkspaceConfig(args: unknown, argumentsText: string): boolean {
  const path = args !== null && typeof args === "object" ? (args as Record<string, unknown>).path : undefined;
  if (typeof path === "string") return basename(path).toLowerCase() === workspaceConfigName;
  return argumentsText.includes(workspaceConfigName);
}

/** Reads one line per `next()` call; resolves undefined once input has ended. */
export function lineReader(input: NodeJS.ReadableStream): { next(): Promise<string | undefined>; close(): void } {
  const lines = createLineQueue();
  let reader: ReturnType<typeof createInterface> | undefined;
  return {
    next() {
      // The reader starts on first use, so stdin is not read when no confirmation is ever asked.
      if (!reader) {
        reader = createInterface({ input, terminal: false });
        reader.on("line", (line) => lines.push(line));
        reader.on("close", () => lines.end());
      }
      return lines.next();
    },
    close() {
      reader?.close();
    },
  };
}
