import { escapeForTerminal } from "../../context/escape-for-terminal.js";
import { parseCommandLine } from "../cli-options.js";
import type { CliIo } from "../cli-io.js";
import { sessionStoreFor } from "../create-agent-from-config.js";
import { resolveConfig } from "../resolve-config.js";
import { textOf, type Message } from "../../types/index.js";

export const sessionsHelp = `Usage: ctxkit sessions list [--workspace <dir>] [--data-dir <dir>] [--json]
       ctxkit sessions show <id> [--workspace <dir>] [--data-dir <dir>] [--json]

Lists the sessions stored in the workspace, or shows one: its messages, model calls and usage.
`;

export async function sessionsCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, positionals } = parseCommandLine(args);
  const [action, id] = positionals;
  if (flags.help || action === undefined) {
    io.stdout.write(sessionsHelp);
    return flags.help ? 0 : 2;
  }
  const config = resolveConfig({ ...flags, workspace: flags.workspace ?? io.cwd }, io.env);
  const store = sessionStoreFor(config);
  if (action === "list") {
    const sessions = await store.list();
    if (flags.json) {
      io.stdout.write(`${JSON.stringify(sessions, null, 2)}\n`);
      return 0;
    }
    if (sessions.length === 0) {
      io.stdout.write(`No sessions in ${store.directory}.\n`);
      return 0;
    }
    for (const session of sessions) {
      const summary = session.error
        ? `unreadable: ${session.error.message}`
        : `${session.messageCount} messages, ${session.requestCount} calls, ${session.model} — ${session.preview}`;
      io.stdout.write(`${session.id}  ${escapeForTerminal(summary)}\n`);
    }
    return 0;
  }
  if (action === "show" && id) {
    const session = await store.load(id);
    if (flags.json) {
      io.stdout.write(`${JSON.stringify(session, null, 2)}\n`);
      return 0;
    }
    io.stdout.write(`session ${session.header.id} (created ${session.header.createdAt})\n`);
    io.stdout.write(`model: ${session.prefix.provider} / ${session.prefix.model}; ${session.requests.length} model calls\n\n`);
    // Messages hold model and tool text: controls and bidi characters are shown escaped.
    for (const message of session.messages) io.stdout.write(`${escapeForTerminal(describeMessage(message))}\n`);
    for (const warning of session.warnings) io.stdout.write(`warning: ${escapeForTerminal(warning.message)}\n`);
    return 0;
  }
  io.stderr.write(`ctxkit sessions: unknown action '${action}'${action === "show" ? " (give a session id)" : ""}.\n${sessionsHelp}`);
  return 2;
}

function describeMessage(message: Message): string {
  switch (message.role) {
    case "user":
      return `user: ${preview(message.content)}`;
    case "assistant": {
      const calls = message.content.flatMap((part) => (part.type === "tool_call" ? [`${part.name}(${preview(part.argumentsText, 60)})`] : []));
      return `assistant: ${preview(textOf(message))}${calls.length > 0 ? ` → ${calls.join(", ")}` : ""}`;
    }
    case "tool":
      return `  ${message.isError ? "✗" : "✓"} ${message.toolName}: ${preview(message.content)}`;
    case "system":
      return `system: ${preview(message.content)}`;
  }
}

function preview(text: string, limit = 100): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}
