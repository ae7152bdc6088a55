import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { importTranscriptFiles } from "../../inspect/importers/import-transcript-files.js";
import type { ImportedTranscript } from "../../inspect/imported-transcript.js";
import { findModelPricing } from "../../tokens/pricing.js";
import { getTokenCounter } from "../../tokens/get-token-counter.js";
import { ConfigError } from "../../types/index.js";
import { cacheModels, measureStatusBarCost, statusBarModes, type CacheModel, type ModeCost, type StatusBarCostRow } from "./measure-status-bar-cost.js";

export interface StatusBarCostReport {
  corpus: string;
  counter: string;
  rows: StatusBarCostRow[];
  /** Sums per corpus part (`swe-gemini`, `tau-bench`) and cache model. */
  totals: Array<{ part: string; runs: number; calls: number; costs: StatusBarCostRow["costs"] }>;
}

/** Where each part of the corpus lives, and the model that recorded it (τ-bench's file does not say). */
const parts = [
  { part: "swe-gemini", format: "mini-swe-agent" as const, model: "gemini-3-pro-preview", files: (corpus: string) => listFiles(join(corpus, "swe-gemini"), ".traj.json") },
  { part: "tau-bench", format: "tau-bench" as const, model: "gpt-4o", files: (corpus: string) => [join(corpus, "tau-bench", "trajectories", "gpt-4o-airline.json")].filter((path) => existsSync(path)) },
];

/**
 * `ctxkit bench status-bar --cost`: every recorded run of the corpus replayed through the status bar
 * in replace, append and auto mode, with tokens and prompt cost under both cache models. `limit`
 * takes the first runs of each part (for quick looks).
 */
export async function runStatusBarCostBench(
  corpus: string,
  options: { limit?: number; onProgress?: (part: string, done: number, total: number) => void } = {},
): Promise<StatusBarCostReport> {
  const counter = getTokenCounter("estimate");
  const rows: StatusBarCostRow[] = [];
  const totals: StatusBarCostReport["totals"] = [];
  for (const part of parts) {
    const files = part.files(corpus);
    if (files.length === 0) continue;
    const { transcripts } = await importTranscriptFiles(files, { format: part.format });
    const chosen = options.limit === undefined ? transcripts : transcripts.slice(0, options.limit);
    const partRows: StatusBarCostRow[] = [];
    // A model the catalog does not price (a router alias, a fixture's name) is costed as the corpus's model.
    for (const transcript of chosen) {
      partRows.push(await measure(transcript, transcript.model && findModelPricing(transcript.model) ? transcript.model : part.model, counter));
      options.onProgress?.(part.part, partRows.length, chosen.length);
    }
    rows.push(...partRows);
    totals.push({ part: part.part, runs: partRows.length, calls: partRows.reduce((total, row) => total + row.calls, 0), costs: sumCosts(partRows) });
  }
  if (rows.length === 0) {
    throw new ConfigError("corpus_missing", `No recorded runs under ${corpus} (expected swe-gemini/*.traj.json or tau-bench/trajectories/gpt-4o-airline.json). Give the folder that holds them (CLI: --corpus <dir>).`);
  }
  return { corpus, counter: counter.name, rows, totals };
}

function measure(transcript: ImportedTranscript, model: string, counter: ReturnType<typeof getTokenCounter>): Promise<StatusBarCostRow> {
  const pricing = findModelPricing(model);
  if (pricing === undefined) throw new ConfigError("model_unpriced", `No price for '${model}' in the pricing catalog; the cost of ${transcript.id} cannot be computed.`);
  return measureStatusBarCost(transcript, model, pricing, counter);
}

function sumCosts(rows: readonly StatusBarCostRow[]): StatusBarCostRow["costs"] {
  const zero = (): ModeCost => ({ promptTokens: 0, cachedTokens: 0, inputCost: 0 });
  const costs = Object.fromEntries(cacheModels.map((model) => [model, Object.fromEntries(statusBarModes.map((mode) => [mode, zero()]))])) as StatusBarCostRow["costs"];
  for (const row of rows) {
    for (const model of cacheModels as readonly CacheModel[]) {
      for (const mode of statusBarModes) {
        const [total, cost] = [costs[model][mode], row.costs[model][mode]];
        total.promptTokens += cost.promptTokens;
        total.cachedTokens += cost.cachedTokens;
        total.inputCost += cost.inputCost;
      }
    }
  }
  return costs;
}

function listFiles(directory: string, suffix: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => name.endsWith(suffix))
    .sort()
    .map((name) => join(directory, name));
}
