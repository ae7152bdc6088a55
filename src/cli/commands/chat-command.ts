import { dirname, join } from "node:path";
import { describeRestored } from "../describe-restored.js";
import type { CacheMiss, SubAgentRun, Usage } from "../../types/index.js";
import { createChatInput } from "../chat-input.js";
import { commonOptionsExcept, parseCommandLine } from "../cli-options.js";
import { hasTerminalInput, type CliIo } from "../cli-io.js";
import { askBudgetApproval } from "../ask-budget-approval.js";
import { askWorkspaceTrust } from "../ask-workspace-trust.js";
import { createConfirmationHandler } from "../confirm-prompt.js";
import { createAgentFromConfig } from "../../config/create-agent-from-config.js";
import { prepareAgentRun } from "../prepare-agent-run.js";
import { createEventRenderer } from "../render-events.js";
import { createTerminalStyle, shouldUseColor } from "../terminal-style.js";
import { formatChatUsage } from "../format-chat-usage.js";
import { formatCacheStatus } from "../format-cache-status.js";
import { startTracingOrSay, stopTracingAndSay } from "../start-tracing-or-say.js";

const chatCommands = ["/help", "/tools", "/skills", "/usage", "/compact", "/effort", "/session", "/exit"];

import { chatHelp, chatKeysHelp } from "./chat-help.js";
import { escapeForTerminal } from "../../context/escape-for-terminal.js";
import { refuseExtraArguments } from "../refuse-extra-arguments.js";

/** How long a first Ctrl-C at the prompt waits for the second that leaves. */
const leaveWindowMs = 3000;

export { chatHelp };

/** run's options but --json and --verbose (a conversation is for a person), and --collapse-thinking. */
export const chatOptions = { ...commonOptionsExcept("json", "verbose"), "collapse-thinking": { type: "boolean" } } as const;

/** `ctxkit chat`: a conversation; each message is one agent run on the shared trajectory. */
export async function chatCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra, positionals } = parseCommandLine(args, chatOptions);
  if (flags.help) {
    io.stdout.write(chatHelp());
    return 0;
  }
  refuseExtraArguments(positionals, 0, 'ctxkit chat takes its messages once it has started (for one task without a conversation: ctxkit run "<task>")');
  const setup = await prepareAgentRun(flags, io);
  const { config } = setup;
  for (const note of setup.notes) io.stderr.write(`ctxkit chat: ${escapeForTerminal(note)}\n`);
  const color = shouldUseColor(io.stdout, config.color, io.env);
  const style = createTerminalStyle(color);
  let skillCommands: string[] = [];
  const input = createChatInput({
    input: io.stdin as Parameters<typeof createChatInput>[0]["input"],
    output: io.stdout,
    historyFile: join(config.dataDir, "chat-history"),
    // Tab completes the chat's commands and then the skills' names (`/<skill>`), known once the agent is built.
    commands: () => [...chatCommands, ...skillCommands],
    // Leaving is not worth recalling: Up after a restart brings back the last message instead.
    keepInHistory: (message) => !/^\/(exit|quit)$/.test(message.trim()),
    onQueued: (message) => io.stdout.write(`\n${style.dim(`(queued for after this turn: ${preview(message)})`)}\n`),
  });
  await askWorkspaceTrust(setup, io, { readLine: input.nextAnswer, output: io.stdout, style });
  // The turn's controller: Ctrl-C aborts it; a question asked during the turn stops waiting then.
  let current: AbortController | undefined;
  // A question asked during a turn (a confirmation, a budget) ends with the turn when Ctrl-C stops it.
  const answerInTurn = () => input.nextAnswer(current?.signal);
  // Traced as `ctxkit run` is: each message is one invoke_agent span of the session's conversation.
  const otel = await startTracingOrSay(io, "chat");
  // The library's call, with the CLI's resolved settings (as `ctxkit run` makes it).
  const configured = await createAgentFromConfig({
    ...setup.inputs,
    ...(otel ? { observeChildRun: otel.tracing.observeChildRun, observeProvider: otel.tracing.observeProvider } : {}),
    onProtectedFilesRestored: (report) => io.stderr.write(`ctxkit chat: ${describeRestored(report)}\n`),
    onInstructionsAnnounced: () => io.stdout.write(style.dim("(the project instructions changed; the model is told with this message)\n")),
    confirmBudget: (request) => askBudgetApproval(request, { readLine: answerInTurn, interrupted: () => current?.signal.aborted === true, output: io.stdout, style }),
    confirmToolCall: createConfirmationHandler({
      readLine: answerInTurn,
      interrupted: () => current?.signal.aborted === true,
      output: io.stdout,
      style,
      workspace: config.workspace,
      interactive: hasTerminalInput(io),
    }),
  });
  const { agent, session, resumed, warnings, skills, mcp } = configured;
  if (flags.continue && !resumed) io.stderr.write(`ctxkit chat: no session to continue in ${dirname(session.path)}; starting a new one.\n`);
  for (const warning of warnings) io.stderr.write(`ctxkit chat: session ${session.id}: ${escapeForTerminal(warning.message)}\n`);
  for (const warning of skills.warnings) io.stderr.write(`ctxkit chat: skills: ${escapeForTerminal(warning.message)}\n`);
  for (const warning of mcp.warnings) io.stderr.write(`ctxkit chat: mcp: ${escapeForTerminal(warning.message)}\n`);
  for (const warning of configured.settingWarnings) io.stderr.write(`ctxkit chat: ${escapeForTerminal(warning)}\n`);
  let skillNames = new Set(skills.skills.map((skill) => skill.name));
  skillCommands = [...skillNames].sort().map((name) => `/${name}`);
  // Skills added or edited while the chat runs are picked up before each message (announced to the model by an appended message).
  const shownSkillWarnings = new Set(skills.warnings.map((warning) => warning.message));
  const reloadSkills = async () => {
    const change = await skills.reload();
    // A SKILL.md added or broken mid-chat is skipped like one at start: say so, once.
    for (const warning of skills.warnings) {
      if (shownSkillWarnings.has(warning.message)) continue;
      shownSkillWarnings.add(warning.message);
      io.stderr.write(`ctxkit chat: skills: ${escapeForTerminal(warning.message)}\n`);
    }
    if (change.added.length + change.changed.length + change.removed.length === 0) return;
    skillNames = new Set(skills.skills.map((skill) => skill.name));
    skillCommands = [...skillNames].sort().map((name) => `/${name}`);
    const parts = [
      change.added.length > 0 ? `added ${change.added.map((skill) => skill.name).join(", ")}` : "",
      change.changed.length > 0 ? `changed ${change.changed.map((skill) => skill.name).join(", ")}` : "",
      change.removed.length > 0 ? `removed ${change.removed.join(", ")}` : "",
    ].filter((part) => part !== "");
    io.stdout.write(style.dim(`(skills ${parts.join("; ")}; the model is told with this message)
`));
  };
  const renderer = createEventRenderer({
    write: (text) => io.stdout.write(text),
    style,
    spinner: io.stdout.isTTY === true,
    ...(color && io.stdout.isTTY === true ? { markdownWidth: Math.min((io.stdout as { columns?: number }).columns ?? 80, 120) } : {}),
    ...(io.stdout.isTTY === true ? { width: (io.stdout as { columns?: number }).columns ?? 80 } : {}),
    collapseThinking: extra["collapse-thinking"] === true,
  });
  const callUsages: Usage[] = [];
  const cacheMisses: Array<{ call: number; miss: CacheMiss }> = [];
  // The sub-agents that ran (their results link them), for /usage.
  const subAgentRuns: SubAgentRun[] = [];
  // Set by /compact: the next message's first call asks the server to compact (see RunOptions.compact).
  let compactNext: { instructions?: string } | undefined;
  // Set by /effort: the reasoning effort over --reasoning-effort, from the next call on.
  let effort: string | undefined;
  // When a Ctrl-C at an empty prompt asked for a second one to leave; typing, or a few seconds, undo it.
  let leaveAskedAt: number | undefined;
  let interrupted = false;
  input.onTyping(() => (leaveAskedAt = undefined));
  input.onInterrupt(({ discarded }) => {
    if (current) {
      current.abort();
      return;
    }
    // A Ctrl-C that dropped typed text did only that, as in bash.
    if (discarded) {
      leaveAskedAt = undefined;
      return;
    }
    const now = Date.now();
    if (leaveAskedAt !== undefined && now - leaveAskedAt <= leaveWindowMs) {
      interrupted = true;
      input.close();
      return;
    }
    leaveAskedAt = now;
    io.stdout.write(`${style.dim("(press Ctrl-C again, Ctrl-D or type /exit to leave)")}\n`);
  });

  io.stdout.write(
    `${style.bold("ctxkit chat")} — ${config.provider}${config.provider === "openai-compatible" ? ` (${config.vendor})` : ""} ${config.model}, workspace ${config.workspace}\n` +
      `${resumed ? `Resumed session ${session.id} (${agent.messages.length} messages).` : `Session ${session.id}.`} Type /help for commands.\n` +
      (configured.instructionFiles.length > 0 ? style.dim(`Project instructions: ${configured.instructionFiles.join(", ")}\n`) : ""),
  );
  try {
    while (true) {
      const queued = input.takeQueued();
      // A message typed during the last turn is shown as it is sent, as if typed at the prompt now.
      if (queued !== undefined) io.stdout.write(`${style.dim("> ")}${escapeForTerminal(queued, { keepLineBreaks: true }).split("\n").join(`\n${style.dim("… ")}`)}\n`);
      const line = queued ?? (await input.nextMessage("> "));
      if (line === undefined) break;
      leaveAskedAt = undefined;
      const text = line.trim();
      if (text === "") continue;
      if (text === "/exit" || text === "/quit") break;
      await reloadSkills();
      // `/<skill> args` is not a chat command: it goes to the agent, whose skills policy expands it.
      if (text.startsWith("/") && !text.includes("\n") && !skillNames.has(text.slice(1).split(/\s+/, 1)[0]!)) {
        const command = text.split(/\s+/, 1)[0];
        if (command === "/exit" || command === "/quit") break;
        if (command === "/help") io.stdout.write(chatKeysHelp);
        else if (command === "/tools") io.stdout.write(`${agent.prefix.tools.map((tool) => `  ${tool.name}`).join("\n") || "  (no tools)"}\n`);
        else if (command === "/skills") io.stdout.write(`${skills.skills.map((skill) => `  /${skill.name}  ${skill.description}`).join("\n") || "  (no skills)"}\n`);
        else if (command === "/usage") {
          const key = config.provider === "anthropic" || config.provider === "llama" ? undefined : (config.cache.key ?? session.id);
          const lifetime = configured.provider.cacheLifetimeMs;
          const cache = formatCacheStatus({ misses: cacheMisses, ...(lifetime === undefined ? {} : { lifetimeMs: lifetime }), ...(key === undefined ? {} : { key }), ...(config.model ? { model: config.model } : {}) });
          io.stdout.write(`${formatChatUsage(callUsages, subAgentRuns, config.model)}\n${cache}\n`);
        }
        else if (command === "/compact") {
          if (configured.requestServerCompaction) {
            // The library's call (ConfiguredAgent.requestServerCompaction): /responses/compact before the next model call.
            configured.requestServerCompaction();
            const ignored = text.slice(command.length).trim() === "" ? "" : "; /responses/compact takes no instructions, so yours are not sent";
            io.stdout.write(style.dim(`(your next message's first call is preceded by /responses/compact: the server's compacted window replaces the conversation${ignored})\n`));
          } else if (configured.provider.compactsOnRequest !== true) {
            io.stdout.write("/compact asks the server to compact, which needs --provider anthropic (compact_20260112) or openai-responses (/responses/compact). ctxkit's own compression compacts near the window by itself.\n");
          } else {
            // Sent with the next message: a request must end with a user turn, and the answer then comes from the summary.
            const instructions = text.slice(command.length).trim();
            compactNext = instructions === "" ? {} : { instructions };
            io.stdout.write(style.dim("(your next message asks the server to compact the conversation first; it compacts only from 50,000 prompt tokens)\n"));
          }
        }
        else if (command === "/effort") {
          const level = text.slice(command.length).trim();
          const inForce = configured.provider.reasoningEffort;
          // The provider's own values: OpenAI's none…xhigh, Anthropic's low…max.
          const efforts = configured.provider.reasoningEfforts ?? [];
          if (inForce === undefined) io.stdout.write("/effort sets the reasoning effort of --provider openai-responses or anthropic; this provider sends none.\n");
          else if (level === "") io.stdout.write(`reasoning effort: ${effort ?? inForce} (one of ${efforts.join(", ")})\n`);
          else if (efforts.length > 0 && !efforts.includes(level)) io.stdout.write(`Unknown effort ${level}. Use one of: ${efforts.join(", ")}.\n`);
          else {
            effort = level;
            agent.setReasoningEffort(level);
            io.stdout.write(style.dim(`(reasoning effort ${level} from the next call; the prompt cache starts over, and /usage names the miss)\n`));
          }
        }
        else if (command === "/session") io.stdout.write(`session ${session.id}\nfile ${session.path}\nresume with: ctxkit chat --session ${session.id}\n`);
        else io.stdout.write(`Unknown command ${command}. Type /help.\n`);
        continue;
      }
      current = new AbortController();
      const events = agent.run(line, { signal: current.signal, ...(compactNext ? { compact: compactNext } : {}) });
      compactNext = undefined;
      for await (const event of otel ? otel.tracing.traceRun(events) : events) {
        renderer.handle(event);
        if (event.type === "usage") callUsages.push(event.usage);
        if (event.type === "cache_miss") {
          const { type: _type, turn: _turn, ...miss } = event;
          cacheMisses.push({ call: callUsages.length, miss });
        }
        if (event.type === "tool_result" && event.message.meta.subAgent) subAgentRuns.push(event.message.meta.subAgent);
        if (event.type === "run_end" && event.stopReason !== "final_answer") {
          io.stdout.write(style.dim(`[stopped: ${event.stopReason}]\n`));
        }
      }
      renderer.stop();
      current = undefined;
    }
  } finally {
    renderer.stop();
    input.close();
    await configured.close((note) => io.stderr.write(`ctxkit chat: ${escapeForTerminal(note)}\n`));
    await stopTracingAndSay(otel, io, "chat");
  }
  io.stdout.write(`\nSession ${session.id} saved. Resume with: ctxkit chat --session ${session.id} (or --continue)\n`);
  return interrupted ? 130 : 0;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= 60 ? flat : `${flat.slice(0, 59)}…`;
}
