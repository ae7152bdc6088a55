import { escapeForTerminal } from "../../context/escape-for-terminal.js";
import { dirname } from "node:path";
import type { AgentEvent } from "../../types/index.js";
import { describeRestored } from "../describe-restored.js";
import { commonOptions, parseCommandLine } from "../cli-options.js";
import { hasTerminalInput, type CliIo } from "../cli-io.js";
import { toCliMessage } from "../cli-error-message.js";
import { askBudgetApproval } from "../ask-budget-approval.js";
import { askWorkspaceTrust } from "../ask-workspace-trust.js";
import { createConfirmationHandler, lineReader } from "../confirm-prompt.js";
import { createAgentFromConfig } from "../../config/create-agent-from-config.js";
import { prepareAgentRun } from "../prepare-agent-run.js";
import { createEventRenderer } from "../render-events.js";
import { createTerminalStyle, shouldUseColor } from "../terminal-style.js";
import type { StatusBarModeDecision } from "../../context/status-bar/index.js";
import { startTracingOrSay, stopTracingAndSay } from "../start-tracing-or-say.js";

import { describeUnknownSkill } from "../describe-unknown-skill.js";
import { runHelp } from "./run-help.js";

export { runHelp };

/** Every agent option (the settings' flags) and what one invocation works on: run-help.ts lists them all. */
export const runOptions = commonOptions;

/** `ctxkit run "<task>"`: one agent run, streamed to the terminal or as NDJSON. */
export async function runCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, positionals } = parseCommandLine(args, runOptions);
  if (flags.help) {
    io.stdout.write(runHelp());
    return 0;
  }
  const task = positionals.join(" ").trim();
  if (task === "") {
    io.stderr.write(`ctxkit run: give the task as an argument, e.g. ctxkit run "fix the failing test".\n\n${runHelp()}`);
    return 2;
  }
  const setup = await prepareAgentRun(flags, io);
  const { config } = setup;
  for (const note of setup.notes) io.stderr.write(`ctxkit run: ${escapeForTerminal(note)}\n`);
  const style = createTerminalStyle(!flags.json && shouldUseColor(io.stdout, config.color, io.env));
  const diagnosticStyle = createTerminalStyle(shouldUseColor(io.stderr, config.color, io.env));
  // stdin is opened when first needed (a question at a terminal), not by every run: see lineReader.
  const answers = lineReader(() => io.stdin);
  await askWorkspaceTrust(setup, io, { readLine: answers.next, output: io.stderr, style: diagnosticStyle });
  const unanswered: string[] = [];
  const guarded: string[] = [];
  // Loaded only when the OTEL_* variables ask for traces: a plain run never imports the SDK.
  const otel = await startTracingOrSay(io, "run");
  // The library's call, with the CLI's resolved settings: a library user with the same settings sends the same requests.
  const configured = await createAgentFromConfig({
    ...setup.inputs,
    ...(otel ? { observeChildRun: otel.tracing.observeChildRun, observeProvider: otel.tracing.observeProvider } : {}),
    onProtectedFilesRestored: (report) => io.stderr.write(`ctxkit run: ${describeRestored(report)}\n`),
    confirmToolCall: createConfirmationHandler({
      readLine: answers.next,
      output: io.stderr,
      style: diagnosticStyle,
      workspace: config.workspace,
      get interactive() {
        return hasTerminalInput(io);
      },
      onUnanswered: (call) => (call.guard ? guarded : unanswered).push(call.name),
    }),
    confirmBudget: (request) => askBudgetApproval(request, { readLine: answers.next, output: io.stderr, style: diagnosticStyle }),
    // How `auto` sent the status bar, and why: NDJSON keeps it as an event; a person sees the
    // reasoning only with --verbose (on stderr), since there is nothing to act on in it.
    onStatusBarDecision: (decision) => {
      if (flags.json) io.stdout.write(`${JSON.stringify({ type: "status_bar_mode", ...decision })}\n`);
      else if (flags.verbose) io.stderr.write(diagnosticStyle.dim(`[status bar: ${describeStatusBarDecision(decision)}]\n`));
    },
  });
  const { agent, session, warnings, skills, mcp } = configured;
  if (flags.continue && !configured.resumed) io.stderr.write(`ctxkit run: no session to continue in ${dirname(session.path)}; starting a new one.\n`);

  for (const warning of warnings) io.stderr.write(`ctxkit run: session ${session.id}: ${escapeForTerminal(warning.message)}\n`);
  for (const warning of skills.warnings) io.stderr.write(`ctxkit run: skills: ${escapeForTerminal(warning.message)}\n`);
  const unknownSkill = describeUnknownSkill(task, skills.skills.map((skill) => skill.name));
  if (unknownSkill !== undefined) io.stderr.write(`ctxkit run: ${unknownSkill}\n`);
  for (const warning of mcp.warnings) io.stderr.write(`ctxkit run: mcp: ${escapeForTerminal(warning.message)}\n`);
  for (const warning of configured.settingWarnings) io.stderr.write(`ctxkit run: ${escapeForTerminal(warning)}\n`);
  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  process.once("SIGINT", onInterrupt);
  const renderer = createEventRenderer({
    write: (text) => io.stdout.write(text),
    writeDiagnostic: (text) => io.stderr.write(text),
    style,
    diagnosticStyle,
    spinner: !flags.json && io.stdout.isTTY === true,
    ...(io.stdout.isTTY === true ? { width: (io.stdout as { columns?: number }).columns ?? 80 } : {}),
  });
  let last: AgentEvent | undefined;
  let errorShown = false;
  try {
    const events = agent.run(task, { signal: controller.signal });
    for await (const event of otel ? otel.tracing.traceRun(events) : events) {
      last = event;
      if (event.type === "error") errorShown = true;
      if (flags.json) io.stdout.write(`${JSON.stringify(event)}\n`);
      else renderer.handle(event);
    }
  } finally {
    renderer.stop();
    process.removeListener("SIGINT", onInterrupt);
    answers.close();
    await configured.close((note) => io.stderr.write(`ctxkit run: ${escapeForTerminal(note)}\n`));
    await stopTracingAndSay(otel, io, "run");
  }
  if (controller.signal.aborted) {
    io.stderr.write(`ctxkit run: interrupted; session ${session.id} kept (resume with --session ${session.id}).\n`);
    return 130;
  }
  if (last?.type !== "run_end") return 1;
  if (!flags.json) {
    const usage = last.usage;
    io.stderr.write(
      diagnosticStyle.dim(`\n[${last.stopReason}] ${last.iterations} model call(s), ${usage.inputTokens.toLocaleString("en-US")} prompt tokens ` +
        `(${usage.cachedInputTokens.toLocaleString("en-US")} cached), ${usage.outputTokens.toLocaleString("en-US")} output` +
        (last.subAgentUsage ? ` (sub-agents: ${last.subAgentUsage.inputTokens.toLocaleString("en-US")} prompt tokens of them)` : "") +
        `; session ${session.id}\n`),
    );
  }
  if (guarded.length > 0) {
    io.stderr.write(
      `ctxkit run: refused ${[...new Set(guarded)].join(", ")}: the arguments carried material that came only from external content. ` +
        "Such calls are confirmed at a terminal only (--yes and allow do not cover them); run ctxkit chat, or check where the instruction came from.\n",
    );
    return 1;
  }
  if (unanswered.length > 0) {
    io.stderr.write(
      `ctxkit run: declined ${[...new Set(unanswered)].join(", ")} because there was no terminal to ask. ` +
        `Pass --yes to approve writes and commands, or list the tools in "allow" in ~/.config/ctxkit/config.json.\n`,
    );
    return 1;
  }
  if (last.stopReason === "final_answer") return 0;
  // The error event was already printed (to stderr); say only how the run ended.
  const detail = last.error && !errorShown ? `: ${toCliMessage(last.error)}` : "";
  io.stderr.write(`ctxkit run: stopped (${last.stopReason})${detail}\n`);
  return 1;
}

/** The `auto` choice in words: what each way of sending the status would cost per call. */
export function describeStatusBarDecision(decision: StatusBarModeDecision): string {
  const { statusTokens, appendedTokensPerUpdate, expectedUpdates, cachedInputPriceRatio } = decision.inputs;
  const round = (value: number) => String(Math.round(value * 10) / 10);
  return (
    `${decision.mode} — appending keeps old statuses, re-read at the cached price: ≈${round(decision.appendSide)} tokens per call ` +
    `(${round(cachedInputPriceRatio)} price ratio × ${round(statusTokens)}-token status × ${round(expectedUpdates)} calls ÷ 2); ` +
    `replacing re-processes what follows the old status: ≈${round(decision.replaceSide)} (${round(1 - cachedInputPriceRatio)} × ${round(appendedTokensPerUpdate)} tokens)`
  );
}
