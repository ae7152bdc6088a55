import { existsSync } from "node:fs";
import { unlockSessionFile } from "../../session/session-file-lock.js";
import { escapeForTerminal } from "../../context/escape-for-terminal.js";
import { parseCommandLine, pickCommonOptions } from "../cli-options.js";
import { formatUsageLine } from "../format-usage.js";
import { formatSessionBudget } from "../format-session-budget.js";
import { describeSubAgents } from "../describe-sub-agents.js";
import { collectSubAgentLinks } from "../../session/sub-agent-links.js";
import type { CliIo } from "../cli-io.js";
import { openSessionStoreFor } from "../../config/open-session-store.js";
import { resolveConfig } from "../resolve-config.js";
import { requireWorkspaceDirectory } from "../require-workspace-directory.js";
import { isInsideFolder } from "../../config/is-inside-folder.js";
import { CtxkitError, textOf, type Message } from "../../types/index.js";
import { describeUnknownAction } from "../describe-unknown-action.js";
import { refuseExtraArguments } from "../refuse-extra-arguments.js";

export const sessionsHelp = `Usage: ctxkit sessions list [--workspace <dir>] [--data-dir <dir> | --database-url <url>] [--json]
       ctxkit sessions show <id> [--workspace <dir>] [--data-dir <dir> | --database-url <url>] [--json]
       ctxkit sessions rm <id…> [--workspace <dir>] [--data-dir <dir> | --database-url <url>]
       ctxkit sessions unlock <id…> [--workspace <dir>] [--data-dir <dir>]

list  the sessions stored in the workspace, oldest first; a session whose last task did not finish
      is marked (e.g. "[last task: error]"), and one a sub-agent recorded names its parent
      ("[sub-agent of <id>]"; in --json, "parentSessionId")
show  one session: its model calls, token usage (prompt, cached, output, cost), its budget (spent
      against the limits of its latest run with --budget-tokens or --budget-cost), the sub-agents
      it ran (each with its own session id) and messages
rm    delete sessions (their files and any .torn file kept beside them)
unlock  remove a JSONL session's lock (<id>.jsonl.lock) that no writer holds any more: one left on
      another host (a container sharing the folder), which ctxkit never breaks by itself since it
      cannot see that host's processes, or one it cannot read. A lock whose writer still runs on
      this host is kept. (PostgreSQL releases a session's lock when its writer disconnects.)

Options:
  --workspace <dir>  the workspace whose sessions these are (default: current directory)
  --data-dir <dir>   where they are stored (default <workspace>/.ctxkit)
  --database-url <url>  read them from PostgreSQL instead (default: CTXKIT_DATABASE_URL)
  --json             print JSON instead of text (list, show)

Exit codes: 0 done; 1 a session could not be read or found; 2 a usage error.
`;

export const sessionsOptions = pickCommonOptions("workspace", "data-dir", "database-url", "json");

export async function sessionsCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, positionals } = parseCommandLine(args, sessionsOptions);
  const [action, id] = positionals;
  if (flags.help) {
    io.stdout.write(sessionsHelp);
    return 0;
  }
  if (action === undefined) {
    io.stderr.write(`ctxkit sessions: say which: list, show <id>, rm <id…> or unlock <id…>.\n\n${sessionsHelp}`);
    return 2;
  }
  if (action === "list") refuseExtraArguments(positionals, 1, "sessions list takes no id (sessions show <id> shows one)");
  if (action === "show") refuseExtraArguments(positionals, 2, "sessions show takes one session id");
  const config = resolveConfig(flags, io.env, { cwd: io.cwd });
  // The workspace matters only when the sessions are kept in it (the default <workspace>/.ctxkit): with --database-url,
  // or a --data-dir elsewhere, a missing workspace is not what would make the list empty.
  if (config.databaseUrl === undefined && isInsideFolder(config.dataDir, config.workspace)) requireWorkspaceDirectory(config.workspace);
  const store = await openSessionStoreFor(config);
  if (action === "list") {
    const listed = await store.list();
    // A child session records nothing of its parent: the parent's task results name the child's id.
    const parents = new Map(listed.flatMap((session) => (session.error ? [] : (session.subAgentSessionIds ?? []).map((child) => [child, session.id] as const))));
    const sessions = listed.map((session) => (parents.has(session.id) ? { ...session, parentSessionId: parents.get(session.id)! } : session));
    if (flags.json) {
      io.stdout.write(`${JSON.stringify(sessions, null, 2)}\n`);
      return 0;
    }
    if (sessions.length === 0) {
      io.stdout.write(`No sessions in ${store.location}.\n`);
      return 0;
    }
    for (const session of sessions) {
      const last = session.error ? undefined : session.lastStopReason;
      const parent = "parentSessionId" in session ? ` [sub-agent of ${session.parentSessionId}]` : "";
      const mark = `${last !== undefined && last !== "final_answer" ? ` [last task: ${last}]` : ""}${parent}`;
      const summary = session.error
        ? `unreadable: ${session.error.message}`
        : `${countOf(session.messageCount, "message")}, ${countOf(session.requestCount, "call")}, ${session.model}${mark} — ${session.preview}`;
      io.stdout.write(`${session.id}  ${escapeForTerminal(summary)}\n`);
    }
    return 0;
  }
  if (action === "show" && id) {
    const session = await store.load(id);
    const subAgents = collectSubAgentLinks(session.log);
    if (flags.json) {
      io.stdout.write(`${JSON.stringify({ ...session, subAgents }, null, 2)}\n`);
      return 0;
    }
    io.stdout.write(`session ${session.header.id} (created ${session.header.createdAt})\n`);
    io.stdout.write(`model: ${session.prefix.provider} / ${session.prefix.model}; ${countOf(session.requests.length, "model call")}\n`);
    const usages = session.usage.map((record) => record.usage);
    io.stdout.write(`usage: ${usages.length === 0 ? "none reported" : formatUsageLine(usages, usages.length, session.prefix.model)}\n`);
    for (const line of formatSessionBudget(session)) io.stdout.write(`budget: ${escapeForTerminal(line)}\n`);
    for (const line of describeSubAgents(subAgents, usages, session.prefix.model)) io.stdout.write(`${line}\n`);
    io.stdout.write("\n");
    // Messages hold model and tool text: controls and bidi characters are shown escaped.
    for (const message of session.messages) io.stdout.write(`${escapeForTerminal(describeMessage(message))}\n`);
    for (const warning of session.warnings) io.stdout.write(`warning: ${escapeForTerminal(warning.message)}\n`);
    return 0;
  }
  if (action === "rm") {
    const ids = positionals.slice(1);
    if (ids.length === 0) throw new CtxkitError("usage_invalid", "give the id of the session to remove (see 'ctxkit sessions list').");
    for (const sessionId of ids) {
      await store.remove(sessionId);
      io.stdout.write(`removed ${sessionId}\n`);
    }
    return 0;
  }
  if (action === "unlock") {
    const ids = positionals.slice(1);
    if (ids.length === 0) throw new CtxkitError("usage_invalid", "give the id of the session to unlock (see 'ctxkit sessions list').");
    if (config.databaseUrl !== undefined) throw new CtxkitError("usage_invalid", "sessions unlock is for sessions kept in JSONL files; PostgreSQL releases a session's lock when its writer disconnects.");
    for (const sessionId of ids) {
      const file = store.path(sessionId);
      if (!existsSync(file)) throw new CtxkitError("session_not_found", `No session file at ${file}. Check the id and the session directory (--data-dir); see 'ctxkit sessions list'.`);
      const { removed, owner } = await unlockSessionFile(file, sessionId);
      const holder = owner === undefined ? "" : ` (it named process ${owner.pid}${owner.host === undefined ? "" : ` on ${owner.host}`})`;
      io.stdout.write(removed ? `unlocked ${sessionId}${holder}\n` : `${sessionId} was not locked\n`);
    }
    return 0;
  }
  const message = action === "show" ? "sessions show needs a session id (see ctxkit sessions list)" : describeUnknownAction(String(action), ["list", "show", "rm", "unlock"]);
  io.stderr.write(`ctxkit sessions: ${message}.\n\n${sessionsHelp}`);
  return 2;
}

function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
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
      return `  ${message.isError ? "✗" : "✓"} ${message.toolName}: ${preview(message.content)}${message.meta.subAgent?.sessionId ? ` [sub-agent session ${message.meta.subAgent.sessionId}]` : ""}`;
    case "system":
      return `system: ${preview(message.content)}`;
  }
}

function preview(text: string, limit = 100): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}
