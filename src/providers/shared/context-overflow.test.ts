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
