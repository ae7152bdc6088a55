import { agentOptionsHelp } from "../agent-options-help.js";

// Its own module, so `ctxkit chat --help` prints it without loading the agent, providers and tools.
export const chatHelp = `Usage: ctxkit chat [options]

An interactive session with the agent in the workspace; each message is one agent task on the same
conversation.

Typing: Enter sends; a line ending in \\ (or Alt+Enter) continues on the next line; a paste is one
message. Up/Down walk the history (kept per workspace), Ctrl-R searches it, Tab completes /
commands. Messages typed
while the agent works are queued and sent after the turn. Ctrl-C stops the current turn; at the
prompt, Ctrl-C twice, Ctrl-D or /exit leaves.

Confirmations (writes, bash) show the diff or the command; answer y (yes), n (no), a (always, for
this tool, for the rest of the session) or n followed by a reason, which is passed to the model.

Commands:
  /help      this list
  /tools     the tools the agent has
  /skills    the skills found; type /<skill> args to run with one loaded
  /usage     tokens so far, the cached share, and the cost (sub-agents' on their own line); the
             prompt cache's lifetime and key, and why each cache miss happened, with what it re-billed
  /session   the session id and file (resume with --session <id> or --continue)
  /exit      leave

${agentOptionsHelp}
Display:
  --collapse-thinking       show one line per thinking block instead of its text
  Replies are rendered as Markdown on a colour terminal, plain otherwise.

Exit codes: 0 left with /exit or Ctrl-D; 2 a usage error; 130 left with Ctrl-C.
`;
