import { agentOptionsHelp } from "../agent-options-help.js";

/** What `/help` shows inside a chat: the keys and the chat's commands, no start-up flags. */
export const chatKeysHelp = `Typing:
  Enter sends. A line ending in \\ (or Alt+Enter) continues on the next line.
  A paste is one message, shown as [pasted N lines].
  Up/Down walk the history (kept per workspace); Ctrl-R searches it.
  Tab completes /commands and /<skill> names.
  Messages typed while the agent works are queued and sent after the turn.
  Ctrl-C stops the current turn; at the prompt it clears the line.
  To leave: Ctrl-C twice on an empty line, Ctrl-D, or /exit.

Confirmations (writes, bash) show the diff or the command. Answer:
  y  yes
  n  no; or n followed by a reason, which is passed to the model
  a  always, for this tool, for the rest of the session

Commands:
  /help      this list
  /tools     the tools the agent has
  /skills    the skills found; type /<skill> args to run with one loaded
  /usage     tokens so far, the cached share, and the cost (sub-agents' on their own line);
             the prompt cache's lifetime and key, why each cache miss happened and what it re-billed
  /compact   [instructions] --provider anthropic: your next message asks the server to
             compact the conversation first (compact_20260112; from 50,000 prompt tokens);
             --provider openai-responses: /responses/compact compacts it before your next
             message's first call (it takes no instructions)
  /effort    [level] show or set the reasoning effort (--provider openai-responses or anthropic)
  /session   the session id and file (resume with --session <id> or --continue)
  /exit      leave
`;

// Its own module, so `ctxkit chat --help` prints it without loading the agent, providers and tools.
export const chatHelp = (): string => `Usage: ctxkit chat [options]

An interactive session with the agent in the workspace; each message is one agent task on the
same conversation.

${chatKeysHelp}
${agentOptionsHelp()}
Display:
  --collapse-thinking       show one line per thinking block instead of its text
  Replies are rendered as Markdown on a colour terminal, plain otherwise.

Exit codes: 0 left with /exit or Ctrl-D; 2 a usage error; 130 left with Ctrl-C.
`;
