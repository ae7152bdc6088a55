import { createLazyRequire } from "../types/lazy-require.js";
import type { createInterface } from "node:readline";
import { createLineQueue } from "./line-queue.js";
import { escapeForTerminal } from "../context/escape-for-terminal.js";
import type { ToolCallInfo, ToolCallDecision } from "../loop/agent-options.js";
import { workspaceConfigReason } from "../tools/create-tool-approvals.js";
import { describeToolCall } from "./describe-tool-call.js";
import type { TerminalStyle } from "./terminal-style.js";

// node:readline is required when the first line is read, not when a run starts (most runs ask nothing).
const requireFromHere = createLazyRequire(import.meta.url);
const readline = () => requireFromHere("node:readline") as typeof import("node:readline");

export interface ConfirmationPolicy {
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
  /** Whether the turn was stopped (Ctrl-C) while the question waited: `readLine` then gave undefined. */
  interrupted?: () => boolean;
}

/** The decision for a question the person stopped the turn at (Ctrl-C) instead of answering. */
function stoppedAtQuestion(output: NodeJS.WritableStream): ToolCallDecision {
  output.write("  not run: you stopped the turn\n");
  return { approved: false, stopped: true, reason: "The user stopped the turn (Ctrl-C) instead of answering." };
}

export const confirmationChoices = "[y]es / [n]o / [a]lways for this session / n <reason> to say why";

/**
 * Builds the approval handler for guarded tools (writes, bash). It only asks the person: which calls
 * run without asking (`allow`, --yes) and which are asked about even so (one naming
 * ctxkit.config.json) is decided by the tool-approvals policy (src/tools/create-tool-approvals.ts),
 * which the library adds from the same settings. The prompt shows what will happen — a diff for file
 * writes, the command for bash — and takes yes, no, always (this tool, for the rest of the session)
 * or no with a reason that is passed to the model. Anything else asks again. When input is closed
 * (no terminal, no piped answer) the call is declined, never silently run.
 */
export function createConfirmationHandler(policy: ConfirmationPolicy): (call: ToolCallInfo) => Promise<ToolCallDecision> {
  const alwaysAllowed = new Set<string>();
  const { style, output } = policy;
  return async (call) => {
    if (call.guard) return confirmGuardedCall(call, call.guard, policy);
    // A call a policy asked about (a change to ctxkit.config.json) is asked about under "always"
    // too, and the question says why.
    const asked = call.asked?.reasons;
    if (!asked && alwaysAllowed.has(call.name)) return { approved: true };
    const warning = (asked ?? []).map((reason) => `\n  ${askedWarning(reason, style)}`).join("");
    // The call is model-chosen text: controls, bidi and invisible characters are shown escaped.
    const described = escapeForTerminal(describeToolCall(call, policy.workspace, style), { keepLineBreaks: true, keepAnsi: true });
    output.write(`\n${style.yellow("?")} Allow ${style.bold(escapeForTerminal(call.name))}?${warning}\n${described}\n`);
    while (true) {
      output.write(`  ${confirmationChoices}: `);
      const answer = await policy.readLine();
      if (answer === undefined && policy.interrupted?.() === true) return stoppedAtQuestion(output);
      if (answer === undefined) {
        output.write(`\n  declined (no answer could be read)\n`);
        policy.onUnanswered?.(call);
        return { approved: false };
      }
      const decision = parseAnswer(answer);
      if (decision === "always") {
        if (!asked) alwaysAllowed.add(call.name);
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
    `\n${style.red("!")} ${style.bold(escapeForTerminal(call.name))} needs your confirmation of this exact call: ` +
    `untrusted content (a page, a server, a file you have not trusted) may have planted the instruction:${why}\n`;
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
    if (answer === undefined && policy.interrupted?.() === true) return stoppedAtQuestion(output);
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

/** Why a policy asks about the call, as the question's warning. */
function askedWarning(reason: string, style: TerminalStyle): string {
  if (reason === workspaceConfigReason) return `${style.red(reason)} (tools it may use, where sessions are stored); --yes and allow do not cover it.`;
  return style.red(escapeForTerminal(reason));
}

/**
 * Reads one line per `next()` call; resolves undefined once input has ended. `input` may be given as
 * a function, called on the first read: opening process.stdin costs a start milliseconds, and most
 * runs never ask anything.
 */
export function lineReader(input: NodeJS.ReadableStream | (() => NodeJS.ReadableStream)): { next(): Promise<string | undefined>; close(): void } {
  const lines = createLineQueue();
  let reader: ReturnType<typeof createInterface> | undefined;
  return {
    next() {
      // The reader starts on first use, so stdin is not read when no confirmation is ever asked.
      if (!reader) {
        reader = readline().createInterface({ input: typeof input === "function" ? input() : input, terminal: false });
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
