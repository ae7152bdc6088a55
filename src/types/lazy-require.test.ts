import { sep } from "node:path";
import { describe, expect, it } from "vitest";
import { createLazyRequire } from "./lazy-require.js";

describe("createLazyRequire", () => {
  it("resolves from the module it was made for, as createRequire does", () => {
    const requireFromHere = createLazyRequire(import.meta.url);
    expect((requireFromHere("node:path") as typeof import("node:path")).sep).toBe(sep);
    expect((requireFromHere("../../package.json") as { name: string }).name).toBe("ctxkit");
  });

  it("does no work until it is first called (a module that never loads its package pays nothing)", () => {
    // createRequire refuses a relative path at once; the lazy one only when used.
    const requireFromNowhere = createLazyRequire("relative/path.js");
    expect(() => requireFromNowhere("node:path")).toThrow();
  });
});
