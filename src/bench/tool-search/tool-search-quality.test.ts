import { describe, expect, it } from "vitest";
import { scoreToolSearchOptions } from "./score-tool-search.js";
import { loadToolSearchEvaluation } from "./tool-search-evaluation.js";

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
    const thirdParty = scoreToolSearchOptions(evaluation.tools, evaluation.thirdPartyQueries, {});
    // Reached on 2026-12-02 with Porter stems and file/URL hints: both sets 156 of 168 in the first 5
    // (0.929), MRR 0.806; the first set alone 94 of 99 (0.949), MRR 0.865 (it was 92, 0.864);
    // others' 44 of 44, MRR 0.905. The issue's goal (recall@5 ≥ 0.95) is not met: see the bench's
    // closing line and the README.
    expect(measure.queries).toBe(168);
    expect(measure.recallAt5).toBeGreaterThanOrEqual(156 / 168);
    expect(measure.mrr).toBeGreaterThanOrEqual(0.806);
    expect(first.queries).toBe(99);
    expect(first.recallAt5).toBeGreaterThanOrEqual(94 / 99);
    expect(first.mrr).toBeGreaterThanOrEqual(0.865);
    expect(thirdParty.queries).toBe(44);
    expect(thirdParty.recallAt5).toBe(1);
    expect(thirdParty.mrr).toBeGreaterThanOrEqual(0.905);
  });
});
