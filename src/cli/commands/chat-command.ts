import type { Usage } from "../../types/index.js";
import { parseCommandLine } from "../cli-options.js";
import type { CliIo } from "../cli-io.js";
import { createConfirmationHandler, lineReader } from "../confirm-prompt.js";
import { createAgentFromConfig } from "../create-agent-from-config.js";
import { createEventRenderer } from "../render-events.js";
import { resolveConfig } from "../resolve-config.js";
import { createTerminalStyle, shouldUseColor } from "../terminal-style.js";
import { formatUsageLine } from "../format-usage.js";

export const chatHelp = `Usage: ctxkit chat [options]

An interactive session with the agent in the workspace. Takes the same options as 'ctxkit run'
(without --json). Ctrl-C stops the current turn; /exit or Ctrl-D leaves.

Commands:
  /help      this list
  /tools     the tools the agent has
  /skills    the skills found; type /<skill> args to run with one loaded
  /usage     tokens so far, the cached share, and the cost
  /session   the session id and file (resume with --session <id>)
  /exit      leave
`;

/** `ctxkit chat`: a readline conversation; each line is one agent run on the shared trajectory. */
export async function chatCommand(args: string[], io: CliIo): Promise<number> {
  const { flags } = parseCommandLine(args);
  if (flags.help) {
    io.stdout.write(chatHelp);
    return 0;
  }
  const config = resolveConfig({ ...flags, workspace: flags.workspace ?? io.cwd }, io.env);
  const style = createTerminalStyle(shouldUseColor(io.stdout, flags.color, io.env));
  const lines = lineReader(io.stdin);
  const { agent, session, resumed, warnings, skills } = await createAgentFromConfig(config, {
    ...(io.env.HOME ? { home: io.env.HOME } : {}),
    confirmToolCall: createConfirmationHandler({ approveAll: config.yes, allow: config.allow, readLine: lines.next, output: io.stdout, style }),
  });
  for (const warning of warnings) io.stderr.write(`ctxkit chat: session ${session.id}: ${warning.message}\n`);
  for (const warning of skills.warnings) io.stderr.write(`ctxkit chat: skills: ${warning.message}\n`);
  const skillNames = new Set(skills.skills.map((skill) => skill.name));
  const renderer = createEventRenderer({ write: (text) => io.stdout.write(text), style, spinner: io.stdout.isTTY === true });
  const callUsages: Usage[] = [];
  let current: AbortController | undefined;
  const onInterrupt = () => {
    if (current) current.abort();
    else io.stdout.write(`\n${style.dim("(type /exit or press Ctrl-D to leave)")}\n> `);
  };
  process.on("SIGINT", onInterrupt);

  io.stdout.write(
    `${style.bold("ctxkit chat")} — ${config.provider}${config.provider === "openai-compatible" ? ` (${config.vendor})` : ""} ${config.model}, workspace ${config.workspace}\n` +
      `${resumed ? `Resumed session ${session.id} (${agent.messages.length} messages).` : `Session ${session.id}.`} Type /help for commands.\n`,
  );
  try {
    while (true) {
      io.stdout.write("> ");
      const line = await lines.next();
      if (line === undefined) break;
      const input = line.trim();
      if (input === "") continue;
      // `/<skill> args` is not a chat command: it goes to the agent, whose skills policy expands it.
      if (input.startsWith("/") && !skillNames.has(input.slice(1).split(/\s+/, 1)[0]!)) {
        const command = input.split(/\s+/, 1)[0];
        if (command === "/exit" || command === "/quit") break;
        if (command === "/help") io.stdout.write(chatHelp);
        else if (command === "/tools") io.stdout.write(`${agent.prefix.tools.map((tool) => `  ${tool.name}`).join("\n") || "  (no tools)"}\n`);
        else if (command === "/skills") io.stdout.write(`${skills.skills.map((skill) => `  /${skill.name}  ${skill.description}`).join("\n") || "  (no skills)"}\n`);
        else if (command === "/usage") io.stdout.write(`${formatUsageLine(callUsages, callUsages.length, config.model)}\n`);
        else if (command === "/session") io.stdout.write(`session ${session.id}\nfile ${session.path}\nresume with: ctxkit chat --session ${session.id}\n`);
        else io.stdout.write(`Unknown command ${command}. Type /help.\n`);
        continue;
      }
      current = new AbortController();
      for await (const event of agent.run(input, { signal: current.signal })) {
        renderer.handle(event);
        if (event.type === "usage") callUsages.push(event.usage);
        if (event.type === "run_end" && event.stopReason !== "final_answer") {
          io.stdout.write(style.dim(`[stopped: ${event.stopReason}${event.error ? ` — ${event.error.message}` : ""}]\n`));
        }
      }
      current = undefined;
    }
  } finally {
    renderer.stop();
    process.removeListener("SIGINT", onInterrupt);
    lines.close();
    await session.close();
  }
  io.stdout.write(`\nSession ${session.id} saved. Resume with: ctxkit chat --session ${session.id}\n`);
  return 0;
}
