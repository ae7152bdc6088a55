import { describe, expect, it } from "vitest";
import { isContextOverflow } from "./context-overflow.js";
import { notOverflows, overflows } from "./overflow-error-samples.js";

// Status, code and wording are weighed in that order.
describe("isContextOverflow", () => {
  it.each(overflows)("recognises %s", (_source, status, body) => {
    expect(isContextOverflow({ ...(status === undefined ? {} : { status }), body })).toBe(true);
  });

  it.each(notOverflows)("does not take %s for an overflow", (_source, status, body) => {
    expect(isContextOverflow({ ...(status === undefined ? {} : { status }), body })).toBe(false);
  });

  it("matches a huge hostile body in bounded time", () => {
    const body = `${"maximum context length is ".repeat(40_000)}x`;
    const started = performance.now();
    isContextOverflow({ status: 400, body });
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

// The list only grows (issue 30, item 3): a rewrite of the patterns lost Cohere's wording once, and
// the scaffold's broader ones before that. Pinned so an entry cannot be dropped with its pattern.
describe("the overflow wordings fixture", () => {
  it("keeps every wording ever recognised, each scaffold pattern's included", () => {
    expect(overflows.length).toBeGreaterThanOrEqual(30);
    const bodies = overflows.map(([, , body]) => body).join("\n");
    for (const wording of ["maximum context length of 4096", "exceed the context length", "exceeds the context size", '"prompt too long"', "context window exceeded", "Input is too long.", "Too many tokens in the request", "\"exceed_context_size_error\"", "too many tokens: total number of tokens"]) {
      expect(bodies).toContain(wording);
    }
  });
});
