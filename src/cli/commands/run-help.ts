import { agentOptionsHelp } from "../agent-options-help.js";

// Its own module, so `ctxkit run --help` prints it without loading the agent, providers and tools;
// a function, so a run that is not asked for help does not format it.
export const runHelp = (): string => `Usage: ctxkit run [options] "<task>"

Runs one agent task in the workspace: the model's text goes to stdout, one line per tool call and
its outcome too; notes, warnings and errors go to stderr.

${agentOptionsHelp()}
Output:
  --json                    print events as NDJSON on stdout; the last line is the run_end event
  --verbose                 also say on stderr how the run decided what it did (the status bar's
                            cost model: why auto replaces or appends it)

Exit codes: 0 the agent gave a final answer; 1 it stopped otherwise (a budget stop ends with
"stopped (budget_exceeded)" on stderr), or a write or command was declined because there was no
terminal to ask (pass --yes, or list the tool in "allow" in ~/.config/ctxkit/config.json);
2 a usage error; 130 interrupted with Ctrl-C.

A task of the form "/<skill> args" runs with that skill's instructions loaded (a name that is no
skill gets a note on stderr, and the task is sent as written).
`;
