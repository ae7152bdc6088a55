import type { CliIo } from "../cli-io.js";
import { commonOptions, parseCommandLine } from "../cli-options.js";
import { requireDatabaseUrl } from "../durable/require-database-url.js";
import { CtxkitError } from "../../types/index.js";
import type { DurableClient } from "../../durable/durable-client.js";
import { isTraceparent } from "../../durable/traceparent.js";
import { describeRun } from "../durable/describe-run.js";
import { settingsLeftOutOfRuns, type CliRunInput } from "../durable/durable-builders.js";
import { leaveOutRunSecrets } from "../durable/run-secrets.js";
import { prepareAgentRun } from "../prepare-agent-run.js";
import { askWorkspaceTrust } from "../ask-workspace-trust.js";
import { lineReader } from "../confirm-prompt.js";
import { createTerminalStyle, shouldUseColor } from "../terminal-style.js";
import type { ConfigFile } from "../../config/config-schema.js";

export const submitHelp = `Usage: ctxkit submit "<task>" [--wait] [--json] [--timeout <s>] [agent options of 'ctxkit run']

Submits a durable run: a worker ('ctxkit worker') runs the task with the agent the options describe
(the same flags and config files as 'ctxkit run'), in a session kept in the database. Prints the
run's id; 'ctxkit runs show <id>' follows it, 'ctxkit view <session id> --database-url …' shows it.

Options:
  --wait           wait until the run completes, fails, is cancelled or needs a person
  --json           print the run as JSON (the last line)
  --timeout <s>    fail the run (error run_timeout, its agent stopped) this long after a worker
                   first starts it
  --budget-scope <name>
                   spend from a budget shared by every run with this scope, across all workers;
                   with it, --budget-tokens is that shared budget's limit (set or changed now),
                   not each run's (hard: --budget-cost and --budget-mode are refused with it).
                   Without it, --budget-tokens, --budget-cost and --budget-mode limit the run's
                   own session, exactly as for 'ctxkit run'
  --database-url   the PostgreSQL database (default: CTXKIT_DATABASE_URL)

Not taken: --continue, --session, --repair (a durable run starts a new session in the database),
--log-requests and --verbose (its requests are made on a worker's host).

With TRACEPARENT set (a W3C traceparent; any other value is ignored with a note), a worker that
traces nests the run's spans under it.
`;

/** run's options (those a durable run cannot take are refused with the reason: refuseLocalOnlyFlags) and its own. */
export const submitOptions = { ...commonOptions, wait: { type: "boolean" }, timeout: { type: "string", number: { above: 0 } }, "budget-scope": { type: "string" } } as const;

/** `ctxkit submit`: stores the run and enqueues it; no worker needs to be running yet. */
export async function submitCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, positionals, extra } = parseCommandLine(args, submitOptions);
  if (flags.help) {
    io.stdout.write(submitHelp);
    return 0;
  }
  const task = positionals.join(" ").trim();
  if (task === "") throw new CtxkitError("usage_invalid", 'give the task to run: ctxkit submit "<task>".');
  refuseLocalOnlyFlags(flags);
  // A shared scope refuses a call it cannot cover (hard); a mode given for it would be dropped.
  if (typeof extra["budget-scope"] === "string" && flags["budget-mode"] !== undefined) {
    throw new CtxkitError("usage_invalid", "--budget-scope shares a hard token budget (a call it cannot cover is refused); --budget-mode applies to one run's own budget only. Drop --budget-mode, or drop --budget-scope.");
  }
  // Checked by parseCommandLine with the other usage errors: a mistyped --timeout is exit 2 whether or not a database is set.
  const timeoutSeconds = extra.timeout as number | undefined;
  const url = requireDatabaseUrl(flags, io);
  // Resolved here, as `ctxkit run` resolves them (flags, variables, config files, the workspace's
  // MCP servers approved, its trust asked at a terminal): the worker rebuilds the agent from these.
  const setup = await prepareAgentRun(flags, io, { runsHere: false });
  for (const note of setup.notes) io.stderr.write(`ctxkit submit: ${note}\n`);
  const answers = lineReader(() => io.stdin);
  try {
    await askWorkspaceTrust(setup, io, { readLine: answers.next, output: io.stderr, style: createTerminalStyle(shouldUseColor(io.stderr, setup.config.color, io.env)) });
  } finally {
    answers.close();
  }
  const resolved: Record<string, unknown> = { ...setup.inputs.settings };
  for (const key of settingsLeftOutOfRuns) delete resolved[key];
  const { settings, leftOut } = leaveOutRunSecrets(resolved);
  const budgetScope = typeof extra["budget-scope"] === "string" ? extra["budget-scope"].trim() : undefined;
  const scopeLimit = budgetScope ? sharedLimitOf(settings) : undefined;
  const input: CliRunInput = {
    workspace: setup.inputs.workspace,
    settings: settings as ConfigFile,
    ...(Object.keys(leftOut).length > 0 ? { secretsLeftOut: leftOut } : {}),
    ...(setup.inputs.userConfigPath ? { userConfigPath: setup.inputs.userConfigPath } : {}),
    ...(setup.inputs.home ? { home: setup.inputs.home } : {}),
  };
  const { openDurableClient } = await import("../../durable/durable-client.js");
  const client = await openDurableClient(url);
  try {
    if (budgetScope) await prepareSharedBudget(client, budgetScope, scopeLimit, Number(settings.contextWindow ?? 128_000));
    // A caller that traces (a CI job, a service) passes its span as TRACEPARENT (W3C, as environment carriers do).
    // One that is not W3C's is ignored (as OpenTelemetry's propagators ignore it), with a note.
    const given = io.env.TRACEPARENT?.trim().toLowerCase();
    const traceparent = given && isTraceparent(given) ? given : undefined;
    if (given && !traceparent) io.stderr.write(`ctxkit submit: TRACEPARENT is not a W3C traceparent (00-<32 hex>-<16 hex>-<2 hex>); the run is not joined to it.\n`);
    let run = await client.submit({ task, agent: { kind: "cli", input: input as unknown as Record<string, unknown> }, ...(timeoutSeconds ? { timeoutMs: timeoutSeconds * 1000 } : {}), ...(traceparent ? { traceparent } : {}), ...(budgetScope ? { budgetScope } : {}) });
    if (!flags.json) io.stdout.write(`submitted ${run.id} (session ${run.sessionId})\n`);
    if (extra.wait) run = await client.wait(run.id, 24 * 3600 * 1000);
    io.stdout.write(flags.json ? `${JSON.stringify(run)}\n` : extra.wait ? `${describeRun(run)}\n` : "");
    return run.status === "failed" || run.status === "cancelled" ? 1 : 0;
  } finally {
    await client.close();
  }
}

/** With --budget-scope, --budget-tokens is the shared budget's limit: taken out of the run's own settings. */
function sharedLimitOf(settings: Record<string, unknown>): number | undefined {
  const limit = typeof settings.budgetTokens === "number" ? settings.budgetTokens : undefined;
  if (settings.budgetCost !== undefined) throw new CtxkitError("usage_invalid", "--budget-scope shares a token budget; --budget-cost limits one run only. Give --budget-tokens with --budget-scope, or drop --budget-scope.");
  delete settings.budgetTokens;
  delete settings.budgetMode;
  return limit;
}

/** The shared budget's row: set to the limit given, or required to exist already. */
async function prepareSharedBudget(client: DurableClient, scope: string, limit: number | undefined, maxCallTokens: number): Promise<void> {
  if (scope === "") throw new CtxkitError("usage_invalid", "--budget-scope needs a name, e.g. --budget-scope team-evals.");
  if (limit !== undefined) return client.defineBudget(scope, limit, maxCallTokens);
  if ((await client.readBudget(scope)) === undefined) {
    throw new CtxkitError("option_invalid", `There is no shared budget '${scope}' yet: give its limit once with --budget-scope ${scope} --budget-tokens <n>.`);
  }
}

/**
 * Flags of `ctxkit run` a durable run cannot honour: its session is a new one in the database
 * (not a local one to continue or resume), and its requests are made on a worker's host (a request
 * log there is the worker's, not this machine's). Refused, not silently dropped.
 */
function refuseLocalOnlyFlags(flags: Record<string, unknown>): void {
  const refused: Array<[flag: string, why: string]> = [
    ["continue", "a durable run starts a new session in the database"],
    ["session", "a durable run starts a new session in the database"],
    ["repair", "a durable run starts a new session in the database"],
    ["log-requests", "a durable run's requests are made on a worker's host"],
    ["verbose", "a durable run's decisions are made on a worker's host"],
  ];
  for (const [flag, why] of refused) {
    if (flags[flag] !== undefined && flags[flag] !== false) throw new CtxkitError("usage_invalid", `--${flag} is not for ctxkit submit: ${why}. Drop --${flag}, or use ctxkit run.`);
  }
}
