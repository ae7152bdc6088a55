import type { CliIo } from "../cli-io.js";
import { parseCommandLine, pickCommonOptions } from "../cli-options.js";
import { requireDatabaseUrl } from "../durable/require-database-url.js";
import { describeRun } from "../durable/describe-run.js";
import { describeUnknownAction } from "../describe-unknown-action.js";
import { CtxkitError } from "../../types/index.js";
import { refuseExtraArguments } from "../refuse-extra-arguments.js";

export const runsHelp = `Usage: ctxkit runs list [--json] [--database-url <url>]
       ctxkit runs show <id> [--json] [--database-url <url>]
       ctxkit runs cancel <id> [--database-url <url>]
       ctxkit runs resume <id> [--approve | --decline | --rerun | --skip] [--database-url <url>]

The durable runs in the database (--database-url or CTXKIT_DATABASE_URL), newest first: list shows
the 50 newest, and when there are more, counts them all by status on stderr.
cancel   stops a run within a second: the model or tool call in flight is aborted (a command killed)
resume   starts a cancelled run again from its last completed step, once its cancelled execution
         stopped (it waits up to 20 s); an answer given then is not used: the run asks again. A run
         that needs confirmation waits for a person: --approve runs the call it asks about (a call
         that asks, as 'ctxkit run' would at a terminal, or a side effect a crash or a cancel
         interrupted, which then runs again), --decline tells the model it was not run (--rerun and
         --skip say the same)

Options:
  --database-url <url>  the PostgreSQL database (default: CTXKIT_DATABASE_URL)
  --json                print JSON instead of text (list, show)
  --approve, --rerun    resume: run the call the run waits on
  --decline, --skip     resume: tell the model the call was not run

Exit codes: 0 done; 1 the run was not found or cannot be resumed; 2 a usage error.
`;

const runsActions = ["list", "show", "cancel", "resume"];
/** How many runs `runs list` prints, the newest; the others are counted by status. */
const listedRuns = 50;
const statusOrder = ["queued", "running", "needs_confirmation", "completed", "failed", "cancelled"] as const;

export const runsOptions = { ...pickCommonOptions("database-url", "json"), approve: { type: "boolean" }, decline: { type: "boolean" }, rerun: { type: "boolean" }, skip: { type: "boolean" } } as const;

/** `ctxkit runs`: list, show, cancel and resume durable runs. */
export async function runsCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, positionals, extra } = parseCommandLine(args, runsOptions);
  const [action, id] = positionals;
  if (flags.help) {
    io.stdout.write(runsHelp);
    return 0;
  }
  if (action === undefined) {
    io.stderr.write(`ctxkit runs: say which: list, show <id>, cancel <id> or resume <id>.\n\n${runsHelp}`);
    return 2;
  }
  // Before the database: `runs lst` is a typo to name, not a run id to ask for or a connection to open.
  if (!runsActions.includes(action)) {
    io.stderr.write(`ctxkit runs: ${describeUnknownAction(action, runsActions)}.\n\n${runsHelp}`);
    return 2;
  }
  // An empty id (`runs show "$RUN"` with RUN unset) is a missing one, not a run to look for.
  if (action !== "list" && (id === undefined || id.trim() === "")) {
    io.stderr.write(`ctxkit runs: ${action} needs a run id (see ctxkit runs list).\n\n${runsHelp}`);
    return 2;
  }
  refuseExtraArguments(positionals, action === "list" ? 1 : 2, action === "list" ? "runs list takes no id (runs show <id> shows one)" : `runs ${action} takes one run id`);
  const decision = resumeDecision(action, extra);
  const url = requireDatabaseUrl(flags, io);
  const { openDurableClient } = await import("../../durable/durable-client.js");
  const client = await openDurableClient(url);
  try {
    const print = (value: unknown, text: string) => io.stdout.write(flags.json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
    switch (action) {
      case "list": {
        const runs = await client.list(listedRuns);
        print(runs, runs.length === 0 ? "No durable runs." : runs.map(describeRun).join("\n"));
        // Past the newest, counted: "no queued, running or needs_confirmation run" (drained) must hold for them all.
        if (runs.length === listedRuns) {
          const counts = await client.countRuns();
          const total = Object.values(counts).reduce((sum, count) => sum + (count ?? 0), 0);
          if (total > listedRuns) io.stderr.write(`ctxkit runs: the ${listedRuns} newest of ${total.toLocaleString("en-US")} runs are listed; all of them: ${statusOrder.filter((status) => counts[status]).map((status) => `${counts[status]!.toLocaleString("en-US")} ${status}`).join(", ")}.\n`);
        }
        return 0;
      }
      case "show": {
        const run = await client.get(id!);
        print(run, describeRun(run));
        return 0;
      }
      case "cancel": {
        const run = await client.cancel(id!);
        print(run, describeRun(run));
        return 0;
      }
      case "resume": {
        const before = await client.get(id!);
        const run = await client.resume(id!, decision, {
          onWaiting: (_run, waitMs) => io.stderr.write(`ctxkit runs: run ${id}'s cancelled execution still holds its session; waiting up to ${waitMs / 1000} s for it to stop...\n`),
        });
        // A cancelled run waits for no answer: resumed, it asks again about a call that needs a person,
        // and an answer sent now would wait in its topic for whatever it asks next (a call nobody saw).
        if (decision !== undefined && before.status === "cancelled") {
          io.stderr.write(`ctxkit runs: run ${id} was cancelled, not waiting for an answer: --${answerFlagsGiven(extra)[0]} was not used. It starts again from its last completed step; if it asks about a call, answer with 'ctxkit runs resume ${id} --approve' or --decline.\n`);
        }
        print(run, describeRun(run));
        return 0;
      }
      default:
        io.stderr.write(`ctxkit runs: ${describeUnknownAction(String(action), runsActions)}.\n\n${runsHelp}`);
        return 2;
    }
  } finally {
    await client.close();
  }
}

/**
 * What `runs resume` is told to do with the call a run waits on. Both answers at once, or an answer
 * to another action, is a usage error before the database is opened (`--approve --decline` approved).
 */
function resumeDecision(action: string, extra: Record<string, unknown>): "rerun" | "skip" | undefined {
  const given = answerFlagsGiven(extra);
  if (given.length === 0) return undefined;
  if (action !== "resume") throw new CtxkitError("usage_invalid", `--${given[0]} answers a run that waits for a person: ctxkit runs resume <id> --${given[0]}.`);
  const approves = given.some((flag) => flag === "approve" || flag === "rerun");
  const declines = given.some((flag) => flag === "decline" || flag === "skip");
  if (approves && declines) throw new CtxkitError("usage_invalid", `--${given.join(" and --")} contradict each other: give --approve (run the call) or --decline (do not).`);
  return approves ? "rerun" : "skip";
}

function answerFlagsGiven(extra: Record<string, unknown>) {
  return (["approve", "rerun", "decline", "skip"] as const).filter((flag) => extra[flag] === true);
}
