import { defaultToolSearchIndexOptions, type ToolSearchIndexOptions } from "../../tools/search/tool-search-index.js";
import type { ToolDefinition } from "../../types/index.js";
import { scoreToolSearchOptions } from "./score-tool-search.js";
import type { ToolSearchQuery } from "./tool-search-evaluation.js";

type Settings = typeof defaultToolSearchIndexOptions;

/** The values each setting may take while tuning. */
const candidates: { [K in keyof Omit<Settings, "boost">]: Array<Settings[K]> } & { boost: { [F in keyof Settings["boost"]]: number[] } } = {
  boost: { name: [1, 1.5, 2, 3, 5], description: [1], parameters: [0, 0.5, 1, 2, 3], parameterDescriptions: [0, 0.25, 0.5, 1] },
  fuzzy: [0],
  prefix: [false, true],
  stemming: [true, false],
  synonymWeight: [0, 0.2, 0.3, 0.4, 0.6],
  typoWeight: [0, 0.5, 0.8, 1],
  lengthNormalisation: [0.2, 0.35, 0.5, 0.75],
  nameCoverage: [0, 0.5, 1, 2],
  hintWeight: [0, 0.25, 0.5, 1],
  relatedWordWeight: [0, 0.2, 0.3, 0.4, 0.5],
  broaderWordWeight: [0, 0.1, 0.2, 0.3],
  // Word vectors are an option a caller brings; without them these settings change nothing.
  vectorWeight: [0.5],
  vectorMinSimilarity: [0.45],
  vectorNeighbours: [3],
};

/** Smallest gain a change must bring to be kept: about one query of the tune half, so noise is not fitted. */
const minImprovement = 0.003;

export interface TuneResult {
  tuned: Settings;
  configurationsTried: number;
}

/**
 * Coordinate ascent on the tune half only: from the shipped defaults, try every value of one
 * setting with the others fixed, keep the best ((recall@5 + MRR) / 2; a change must gain `minImprovement`),
 * and go round until nothing improves (at most `rounds` times). The tune half is cut in two by tool
 * (as the halves are) and a change must not lose on either part: a gain that only one part's tools
 * bring is fitting those tools, not the search.
 */
export function tuneToolSearch(tools: readonly ToolDefinition[], tune: readonly ToolSearchQuery[], rounds = 3): TuneResult {
  const folds = [0, 1].map((fold) => tune.filter((query) => foldOf(query.tool) === fold));
  let best: Settings = structuredClone(defaultToolSearchIndexOptions);
  let bestScore = objective(tools, tune, best);
  let bestFolds = folds.map((fold) => objective(tools, fold, best));
  let tried = 1;
  for (let round = 0; round < rounds; round += 1) {
    let improved = false;
    const variants: Array<(settings: Settings) => Settings[]> = [
      ...(Object.keys(candidates.boost) as Array<keyof Settings["boost"]>).map((field) => (settings: Settings) => candidates.boost[field].map((value) => ({ ...settings, boost: { ...settings.boost, [field]: value } }))),
      ...(Object.keys(candidates).filter((key) => key !== "boost") as Array<Exclude<keyof Settings, "boost">>).map(
        (key) => (settings: Settings) => (candidates[key] as unknown[]).map((value) => ({ ...settings, [key]: value }) as Settings),
      ),
    ];
    for (const vary of variants) {
      for (const settings of vary(best)) {
        tried += 1;
        const score = objective(tools, tune, settings);
        if (score <= bestScore + minImprovement) continue;
        const foldScores = folds.map((fold) => objective(tools, fold, settings));
        if (foldScores.some((foldScore, fold) => foldScore < bestFolds[fold]!)) continue;
        bestScore = score;
        bestFolds = foldScores;
        best = settings;
        improved = true;
      }
    }
    if (!improved) break;
  }
  return { tuned: best, configurationsTried: tried };
}

/** Which part of the tune half a query's tool falls in: a second FNV-1a bit, independent of the halves' parity. */
function foldOf(tool: string): 0 | 1 {
  let hash = 0x811c9dc5;
  for (const char of tool) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return ((hash >>> 1) & 1) as 0 | 1;
}

function objective(tools: readonly ToolDefinition[], queries: readonly ToolSearchQuery[], options: ToolSearchIndexOptions): number {
  const scores = scoreToolSearchOptions(tools, queries, options);
  return (scores.recallAt5 + scores.mrr) / 2;
}
