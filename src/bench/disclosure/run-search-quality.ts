import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseTauTasks } from "../tau/tau-task.js";
import { parseTauTrajectories } from "../tau/tau-trajectories.js";
import { createToolSearchIndex, defaultToolSearchIndexOptions, type ToolSearchIndexOptions } from "../../tools/search/tool-search-index.js";
import type { ToolDefinition } from "../../types/index.js";

/** One search: the query a task gives, and the tools its gold actions use. */
export interface SearchQuery {
  domain: "airline" | "retail";
  taskId: number;
  query: string;
  gold: string[];
}

export interface SearchScores {
  queries: number;
  /** Mean share of a query's gold tools among the top 5. */
  recallAt5: number;
  /** Mean reciprocal rank of the first gold tool (0 when none is in the top 10). */
  mrr: number;
}

export interface SearchQualityResult {
  catalogTools: number;
  /** Tasks with an even id are tuned on; odd ids are only measured. */
  split: string;
  defaults: ToolSearchIndexOptions;
  tuned: ToolSearchIndexOptions;
  configurationsTried: number;
  /** Plain BM25: every field weighed the same, whole words only. */
  plain: ToolSearchIndexOptions;
  rows: Array<{ options: "plain" | "defaults" | "tuned"; half: "tune" | "measure"; domain: "airline" | "retail" | "all" } & SearchScores>;
}

/**
 * Queries from the corpus: the first user message of each recorded airline dialogue (4 trials per
 * task, so 4 phrasings) and the `instruction` of each retail test task; gold = the distinct tools of
 * the task's gold `actions`.
 */
export async function loadSearchQueries(tauDirectory: string): Promise<SearchQuery[]> {
  const trajectoriesFile = join(tauDirectory, "trajectories", "gpt-4o-airline.json");
  const dialogues = parseTauTrajectories(await readFile(trajectoriesFile, "utf8"), trajectoriesFile);
  const airline = dialogues.flatMap((dialogue): SearchQuery[] => {
    const first = dialogue.messages.find((message) => message.role === "user");
    const gold = [...new Set(dialogue.task.actions.map((action) => action.name))];
    return typeof first?.content === "string" && gold.length > 0 ? [{ domain: "airline", taskId: dialogue.taskId, query: first.content, gold }] : [];
  });
  const tasksFile = join(tauDirectory, "retail", "tasks_test.json");
  const retail = parseTauTasks(await readFile(tasksFile, "utf8"), tasksFile).flatMap((task, taskId): SearchQuery[] => {
    const gold = [...new Set(task.actions.map((action) => action.name))];
    return gold.length > 0 ? [{ domain: "retail", taskId, query: task.instruction, gold }] : [];
  });
  return [...airline, ...retail];
}

export function scoreSearch(catalog: readonly ToolDefinition[], queries: readonly SearchQuery[], options: ToolSearchIndexOptions): SearchScores {
  const index = createToolSearchIndex(catalog, options);
  let recall = 0;
  let reciprocal = 0;
  for (const query of queries) {
    const ranked = index.search(query.query, 10).map((hit) => hit.name);
    recall += query.gold.filter((name) => ranked.slice(0, 5).includes(name)).length / query.gold.length;
    const rank = ranked.findIndex((name) => query.gold.includes(name));
    reciprocal += rank === -1 ? 0 : 1 / (rank + 1);
  }
  const count = queries.length;
  return { queries: count, recallAt5: count === 0 ? 0 : recall / count, mrr: count === 0 ? 0 : reciprocal / count };
}

const plainOptions: ToolSearchIndexOptions = { boost: { name: 1, description: 1, parameters: 1, parameterDescriptions: 0 }, fuzzy: 0, prefix: false, stemming: false, synonymWeight: 0, typoWeight: 0, nameCoverage: 0 };

/** The grid tuned over (on the tune half only). */
export function searchOptionGrid(): ToolSearchIndexOptions[] {
  const grid: ToolSearchIndexOptions[] = [];
  for (const name of [1, 2, 3, 5])
    for (const description of [1])
      for (const parameters of [0.5, 1, 1.5, 3])
        for (const typoWeight of [0, 0.8]) for (const prefix of [true, false]) grid.push({ boost: { name, description, parameters }, typoWeight, prefix });
  return grid;
}

/**
 * recall@5 and MRR of `tool_search`'s index over all τ-bench tools plus the MCP servers' tools.
 * Field boosts and fuzzy/prefix matching are tuned on the even-id tasks; both halves are reported,
 * the odd half being the number that counts.
 */
export function runSearchQuality(catalog: readonly ToolDefinition[], queries: readonly SearchQuery[], grid = searchOptionGrid()): SearchQualityResult {
  const tune = queries.filter((query) => query.taskId % 2 === 0);
  const measure = queries.filter((query) => query.taskId % 2 === 1);
  let tuned: ToolSearchIndexOptions = defaultToolSearchIndexOptions;
  let best = -1;
  for (const options of grid) {
    const scores = scoreSearch(catalog, tune, options);
    const objective = (scores.recallAt5 + scores.mrr) / 2;
    if (objective > best + 1e-9) {
      best = objective;
      tuned = options;
    }
  }
  const rows: SearchQualityResult["rows"] = [];
  for (const [label, options] of [["plain", plainOptions], ["defaults", defaultToolSearchIndexOptions], ["tuned", tuned]] as const) {
    for (const [half, set] of [["tune", tune], ["measure", measure]] as const) {
      for (const domain of ["airline", "retail", "all"] as const) {
        rows.push({ options: label, half, domain, ...scoreSearch(catalog, domain === "all" ? set : set.filter((query) => query.domain === domain), options) });
      }
    }
  }
  return { catalogTools: catalog.length, split: "tune: even task ids; measure: odd task ids", plain: plainOptions, defaults: defaultToolSearchIndexOptions, tuned, configurationsTried: grid.length, rows };
}
