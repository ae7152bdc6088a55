import type { CliIo } from "../cli-io.js";
import { parseCommandLine } from "../cli-options.js";
import { requireDatabaseUrl } from "../durable/require-database-url.js";
import { CtxkitError } from "../../types/index.js";
import { describeRun } from "../durable/describe-run.js";

export const submitHelp = `Usage: ctxkit submit "<task>" [--wait] [--json] [--timeout <s>] [agent options of 'ctxkit run']

Submits a durable run: a worker ('ctxkit worker') runs the task with the agent the options describe
(the same flags and config files as 'ctxkit run'), in a session kept in the database. Prints the
run's id; 'ctxkit runs show <id>' follows it, 'ctxkit view <session id> --database-url …' shows it.

Options:
  --wait           wait until the run completes, fails, is cancelled or needs a person
  --json           print the run as JSON (the last line)
  --timeout <s>    cancel the run this long after a worker starts it
  --database-url   the PostgreSQL database (default: CTXKIT_DATABASE_URL)
`;

const agentFlagsToDrop = new Set(["--wait", "--json"]);

/** `ctxkit submit`: stores the run and enqueues it; no worker needs to be running yet. */
export async function submitCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, positionals, extra } = parseCommandLine(args, { wait: { type: "boolean" }, timeout: { type: "string" } });
  if (flags.help) {
    io.stdout.write(submitHelp);
    return 0;
  }
  const task = positionals.join(" ").trim();
  if (task === "") throw new CtxkitError("usage_invalid", 'give the task to run: ctxkit submit "<task>".');
  const url = requireDatabaseUrl(flags, io, "submit");
  const timeoutSeconds = typeof extra.timeout === "string" ? Number(extra.timeout) : undefined;
  if (timeoutSeconds !== undefined && !(timeoutSeconds > 0)) throw new CtxkitError("option_invalid", `--timeout must be a positive number of seconds, got '${String(extra.timeout)}'.`);
  // The agent's flags as given, minus the task, submit's own flags and secrets (a worker uses its own keys).
  const agentFlags = stripFlags(args, positionals);
  const { openDurableClient } = await import("../../durable/durable-client.js");
  const client = await openDurableClient(url);
  try {
    let run = await client.submit({ task, agent: { kind: "cli", input: { flags: agentFlags, cwd: io.cwd } }, ...(timeoutSeconds ? { timeoutMs: timeoutSeconds * 1000 } : {}) });
    if (!flags.json) io.stdout.write(`submitted ${run.id} (session ${run.sessionId})\n`);
    if (extra.wait) run = await client.wait(run.id, 24 * 3600 * 1000);
    io.stdout.write(flags.json ? `${JSON.stringify(run)}\n` : extra.wait ? `${describeRun(run)}\n` : "");
    return run.status === "failed" || run.status === "cancelled" ? 1 : 0;
  } finally {
    await client.close();
  }
}

function stripFlags(args: readonly string[], positionals: readonly string[]): string[] {
  const kept: string[] = [];
  const secret = new Set(["--api-key", "--database-url", "--timeout"]);
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (agentFlagsToDrop.has(arg) || positionals.includes(arg)) continue;
    if (secret.has(arg)) {
      index += 1;
      continue;
    }
    if ([...secret].some((name) => arg.startsWith(`${name}=`))) continue;
    kept.push(arg);
  }
  return kept;
}
