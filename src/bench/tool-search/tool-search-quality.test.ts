import { describe, expect, it } from "vitest";
import { scoreToolSearchOptions } from "./score-tool-search.js";
import { loadToolSearchEvaluation } from "./tool-search-evaluation.js";
import { wordNetWeights } from "../../tools/search/tool-search-index.js";

/**
 * The shipped defaults' quality on the fixtures alone (six MCP servers' real catalogs, 111 tools in
 * one index; τ-bench's tools need the corpus and are left out here), pinned at what they reach so a
 * change that loses quality is seen. The measure half was never tuned on; the third-party queries
 * were written by others. Raise these when the search gets better; never lower them to pass.
 */
describe("tool search quality on the measure half (pinned)", () => {
  it("keeps recall@5 and MRR of the measure half and of the queries written by others", async () => {
    const evaluation = await loadToolSearchEvaluation(undefined);
    expect(evaluation.tools.length).toBeGreaterThanOrEqual(70);
    const measureQueries = evaluation.queries.filter((query) => query.half === "measure");
    const measure = scoreToolSearchOptions(evaluation.tools, measureQueries, {});
    const first = scoreToolSearchOptions(evaluation.tools, measureQueries.filter((query) => query.set === "first"), {});
    const firstTwo = scoreToolSearchOptions(evaluation.tools, measureQueries.filter((query) => query.set !== "round three"), {});
    const thirdParty = scoreToolSearchOptions(evaluation.tools, evaluation.thirdPartyQueries, {});
    // Reached on 2026-12-02 with WordNet off (the default since it gained on the tune half only):
    // all three sets 193 of 210 in the first 5, MRR 0.788; the first set alone 94 of 99, MRR 0.8655;
    // the first two sets 157 of 168, MRR 0.8127; others' 44 of 44, MRR 0.905. The first set's MRR
    // was pinned at 0.870 with WordNet on; that number is WordNet's and is pinned below, on its
    // opt-in weights. The goal (recall@5 ≥ 0.95) is not met: see the bench's closing line and the README.
    expect(measure.queries).toBe(210);
    expect(measure.recallAt5).toBeGreaterThanOrEqual(193 / 210);
    expect(measure.mrr).toBeGreaterThanOrEqual(0.787);
    expect(first.queries).toBe(99);
    expect(first.recallAt5).toBeGreaterThanOrEqual(94 / 99);
    expect(first.mrr).toBeGreaterThanOrEqual(0.865);
    expect(firstTwo.queries).toBe(168);
    expect(firstTwo.recallAt5).toBeGreaterThanOrEqual(157 / 168);
    expect(firstTwo.mrr).toBeGreaterThanOrEqual(0.812);
    expect(thirdParty.queries).toBe(44);
    expect(thirdParty.recallAt5).toBe(1);
    expect(thirdParty.mrr).toBeGreaterThanOrEqual(0.905);
  });

  it("keeps what WordNet's opt-in weights reach on the first set", async () => {
    const evaluation = await loadToolSearchEvaluation(undefined);
    const firstMeasure = evaluation.queries.filter((query) => query.half === "measure" && query.set === "first");
    const first = scoreToolSearchOptions(evaluation.tools, firstMeasure, wordNetWeights);
    // 94 of 99, MRR 0.87099 (0.8655 without): its one gain on held-out queries; round three lost two.
    expect(first.recallAt5).toBeGreaterThanOrEqual(94 / 99);
    expect(first.mrr).toBeGreaterThanOrEqual(0.870);
  });
});
