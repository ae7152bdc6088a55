import type { AgentEvent } from "../../types/index.js";
import { parseCommandLine } from "../cli-options.js";
import type { CliIo } from "../cli-io.js";
import { createConfirmationHandler, lineReader } from "../confirm-prompt.js";
import { createAgentFromConfig } from "../create-agent-from-config.js";
import { createEventRenderer } from "../render-events.js";
import { resolveConfig } from "../resolve-config.js";
import { createTerminalStyle, shouldUseColor } from "../terminal-style.js";

export const runHelp = `Usage: ctxkit run [options] "<task>"

Runs one agent task in the workspace and streams the model's text and one line per tool call.
Exit code 0 when the agent gives a final answer; 1 with a one-line reason otherwise.

Options:
  --provider <openai-compatible|anthropic>   model API (default openai-compatible)
  --vendor <openai|vllm|ollama|llamacpp|deepseek|kimi|glm|openrouter>
  --base-url <url>          API base URL (e.g. http://127.0.0.1:11434/v1 for Ollama)
  --model <name>            model name (required)
  --api-key <key>           API key (default from OPENAI_API_KEY, ANTHROPIC_API_KEY, …)
  --workspace <dir>         directory the tools work in (default: current directory)
  --session <id>            resume a stored session
  --max-iterations <n>      model calls before stopping (default 50)
  --context-window <tokens> the model's context window (compression triggers at 80% of it; default 128000)
  --compression <policy>    ctxkit (default: layered), none, individual, combined, context-aware,
                            context-aware-citations, windowed
  --tools <list>            comma-separated built-in tools; 'default' = all but bash, 'all' adds bash
  --yes, -y                 approve every confirmation (writes, bash)
  --data-dir <dir>          where sessions are stored (default <workspace>/.ctxkit)
  --json                    print events as NDJSON; the last line is the run_end event
  --status-bar <auto|replace|append|off>
                            how the <agent_status> message is sent (default auto: the seed's cost model)
  --no-timestamps --no-counter --no-todo --no-errors --no-state
                            switch off a part of the status bar (times, call counts, TODO list,
                            detailed errors, system state)
  --skills <dir>            a folder of skills (<dir>/<name>/SKILL.md, relative to the workspace like
                            --data-dir); repeatable, searched before
                            <workspace>/.ctxkit/skills, .agents/skills, .claude/skills, ~/.config/ctxkit/skills
  --no-color                plain output

A task of the form "/<skill> args" runs with that skill's instructions loaded.
`;

/** `ctxkit run "<task>"`: one agent run, streamed to the terminal or as NDJSON. */
export async function runCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, positionals } = parseCommandLine(args);
  if (flags.help) {
    io.stdout.write(runHelp);
    return 0;
  }
  const task = positionals.join(" ").trim();
  if (task === "") {
    io.stderr.write(`ctxkit run: give the task as an argument, e.g. ctxkit run "fix the failing test".\n`);
    return 2;
  }
  const config = resolveConfig({ ...flags, workspace: flags.workspace ?? io.cwd }, io.env);
  const style = createTerminalStyle(!flags.json && shouldUseColor(io.stdout, flags.color, io.env));
  const answers = lineReader(io.stdin);
  const promptOutput = flags.json ? io.stderr : io.stdout;
  const { agent, session, warnings, skills } = await createAgentFromConfig(config, {
    ...(io.env.HOME ? { home: io.env.HOME } : {}),
    confirmToolCall: createConfirmationHandler({ approveAll: config.yes, allow: config.allow, readLine: answers.next, output: promptOutput, style }),
    // How `auto` sent the status bar, and why (the cost model's inputs).
    onStatusBarDecision: (decision) =>
      io.stdout.write(flags.json ? `${JSON.stringify({ type: "status_bar_mode", ...decision })}\n` : style.dim(`[status bar: ${decision.mode} — ${decision.reason}]\n`)),
  });

  for (const warning of warnings) io.stderr.write(`ctxkit run: session ${session.id}: ${warning.message}\n`);
  for (const warning of skills.warnings) io.stderr.write(`ctxkit run: skills: ${warning.message}\n`);
  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  process.once("SIGINT", onInterrupt);
  const renderer = createEventRenderer({ write: (text) => io.stdout.write(text), style, spinner: !flags.json && io.stdout.isTTY === true });
  let last: AgentEvent | undefined;
  try {
    for await (const event of agent.run(task, { signal: controller.signal })) {
      last = event;
      if (flags.json) io.stdout.write(`${JSON.stringify(event)}\n`);
      else renderer.handle(event);
    }
  } finally {
    renderer.stop();
    process.removeListener("SIGINT", onInterrupt);
    answers.close();
    await session.close();
  }
  if (last?.type !== "run_end") return 1;
  if (!flags.json) {
    const usage = last.usage;
    io.stdout.write(
      style.dim(`\n[${last.stopReason}] ${last.iterations} model call(s), ${usage.inputTokens.toLocaleString("en-US")} prompt tokens ` +
        `(${usage.cachedInputTokens.toLocaleString("en-US")} cached), ${usage.outputTokens.toLocaleString("en-US")} output; session ${session.id}\n`),
    );
  }
  if (last.stopReason === "final_answer") return 0;
  io.stderr.write(`ctxkit run: stopped (${last.stopReason})${last.error ? `: ${last.error.message}` : ""}\n`);
  return 1;
}
