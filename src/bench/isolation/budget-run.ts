import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { createBudget } from "../../context/budget/index.js";
import { assembleAgent } from "../../agents/assemble-agent.js";
import { createScriptedProvider } from "../../providers/scripted/index.js";
import { createWorkspaceTools } from "../../tools/builtin/index.js";
import { ConfigError, type RunStopReason } from "../../types/index.js";
import { formatInteger, formatPercent, formatTextTable } from "../text-table.js";
import { createBudgetPolicy } from "../../context/budget/create-budget-policy.js";

export interface BudgetRunOptions {
  /** The code base the scripted agent reads (e.g. a copy of this repository's `src/`). */
  workspace: string;
  /** Hard token limits to run under, one run each (default 50 000, 100 000, 200 000). */
  limits?: readonly number[];
  /** Output tokens each call reserves (default 200). */
  maxOutputTokens?: number;
  /** A safety stop for the scripted agent (default 500 calls). */
  maxIterations?: number;
}

/** One model call of a budget run. */
export interface BudgetRunCall {
  call: number;
  /** Backpressure before the call (virtual milliseconds). */
  delayMs: number;
  /** Virtual time when the call was sent (ms since the run started). */
  sentAtMs: number;
  promptTokens: number;
  outputTokens: number;
  /** What the session had spent after the call, and as a share of its limit. */
  spentTokens: number;
  share: number;
}

/** One run under one limit. */
export interface BudgetRunRow {
  limit: number;
  stopReason: RunStopReason;
  calls: number;
  spentTokens: number;
  /** The limit minus what was spent: never negative when the hard stop works. */
  headroomTokens: number;
  /** Whether the run stayed within its limit (the property the hard mode guarantees). */
  withinLimit: boolean;
  /** Calls that waited, by delay: `{ "50": 3, "300": 2, … }`. */
  delays: Record<string, number>;
  /** Total backpressure on the virtual clock. */
  waitedMs: number;
  /** Why the last call was refused, as the run reported it. */
  refusal?: string;
  perCall: BudgetRunCall[];
}

export interface BudgetRunReport {
  workspace: string;
  files: number;
  maxOutputTokens: number;
  rows: BudgetRunRow[];
}

/**
 * The budget run of the isolation benchmark: a scripted agent reads a real code base file after
 * file (one `read_file` call per turn, never a final answer) under a hard session token budget.
 * It must stop before the budget, never after; backpressure delays are recorded on a virtual
 * clock (no real waiting). Offline and deterministic for a given workspace.
 */
export async function runBudgetRun(options: BudgetRunOptions): Promise<BudgetRunReport> {
  const files = await listFiles(options.workspace);
  if (files.length === 0) throw new ConfigError("corpus_missing", `The budget run needs files to read; ${options.workspace} has none (pass a copy of a code base as workspace).`);
  const maxOutputTokens = options.maxOutputTokens ?? 200;
  const rows: BudgetRunRow[] = [];
  for (const limit of options.limits ?? [50_000, 100_000, 200_000]) rows.push(await runUnderLimit(options, files, limit, maxOutputTokens));
  return { workspace: options.workspace, files: files.length, maxOutputTokens, rows };
}

async function runUnderLimit(options: BudgetRunOptions, files: readonly string[], limit: number, maxOutputTokens: number): Promise<BudgetRunRow> {
  let virtualMs = 0;
  const start = Date.parse("2026-01-01T00:00:00.000Z");
  const clock = () => new Date(start + virtualMs);
  const budget = createBudget({ session: { tokens: limit, mode: "hard" }, sleep: async (milliseconds) => void (virtualMs += milliseconds) });
  const provider = createScriptedProvider({
    turns: (_request, call) => ({ text: `Reading file ${call + 1}.`, toolCalls: [{ name: "read_file", arguments: { path: files[call % files.length]!, limit: 20 } }] }),
  });
  const tools = createWorkspaceTools({ workspace: options.workspace }).filter((tool) => ["read_file", "grep", "glob", "list_dir"].includes(tool.name));
  let ids = 0;
  const { agent } = await assembleAgent({
    provider,
    system: "You read a code base to find where budgets are enforced.",
    tools,
    settings: { maxOutputTokens },
    prefixGuard: false,
    runtime: { maxIterations: options.maxIterations ?? 500, clock, createId: () => `m_${ids++}` },
    policies: [createBudgetPolicy(budget)],
  });
  const perCall: BudgetRunCall[] = [];
  let pendingDelay = 0;
  let spentTokens = 0;
  let stopReason: RunStopReason = "error";
  let refusal: string | undefined;
  for await (const event of agent.run("Find where the token budget is checked before a model call.")) {
    if (event.type === "backpressure") pendingDelay += event.delayMs;
    if (event.type === "usage") {
      spentTokens += event.usage.inputTokens + event.usage.outputTokens;
      perCall.push({
        call: perCall.length + 1,
        delayMs: pendingDelay,
        sentAtMs: virtualMs,
        promptTokens: event.usage.inputTokens,
        outputTokens: event.usage.outputTokens,
        spentTokens,
        share: spentTokens / limit,
      });
      pendingDelay = 0;
    }
    if (event.type === "run_end") {
      stopReason = event.stopReason;
      refusal = event.error?.message;
    }
  }
  const delays: Record<string, number> = {};
  for (const call of perCall) if (call.delayMs > 0) delays[String(call.delayMs)] = (delays[String(call.delayMs)] ?? 0) + 1;
  return {
    limit,
    stopReason,
    calls: perCall.length,
    spentTokens,
    headroomTokens: limit - spentTokens,
    withinLimit: spentTokens <= limit,
    delays,
    waitedMs: perCall.reduce((sum, call) => sum + call.delayMs, 0),
    ...(refusal ? { refusal } : {}),
    perCall,
  };
}

/** The run's tables: one row per limit, then every call of the largest limit's run. */
export function formatBudgetRunReport(report: BudgetRunReport): string {
  const summary = formatTextTable(
    ["hard limit", "stop", "calls", "spent", "headroom", "within", "delays (ms × calls)", "waited"],
    report.rows.map((row) => [
      formatInteger(row.limit),
      row.stopReason,
      String(row.calls),
      formatInteger(row.spentTokens),
      formatInteger(row.headroomTokens),
      row.withinLimit ? "yes" : "NO",
      Object.entries(row.delays).map(([delay, count]) => `${delay}×${count}`).join(" ") || "-",
      `${formatInteger(row.waitedMs)} ms`,
    ]),
    { leftColumns: [1, 5, 6] },
  );
  const largest = report.rows.at(-1);
  const calls = largest
    ? formatTextTable(
        ["call", "delay", "sent at", "prompt", "output", "spent", "share"],
        largest.perCall.map((call) => [String(call.call), `${call.delayMs} ms`, `${formatInteger(call.sentAtMs)} ms`, formatInteger(call.promptTokens), formatInteger(call.outputTokens), formatInteger(call.spentTokens), formatPercent(call.share)]),
      )
    : "";
  return [
    `Budget run: a scripted agent reads ${report.files} files under a hard token budget (${report.maxOutputTokens} output tokens reserved per call); virtual clock.`,
    summary,
    "",
    largest ? `Calls under the ${formatInteger(largest.limit)}-token limit:` : "",
    calls,
    largest?.refusal ? `Refused: ${largest.refusal}` : "",
  ]
    .filter((line, index, lines) => line !== "" || lines[index - 1] !== "")
    .join("\n");
}

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(ts|md|json)$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}
