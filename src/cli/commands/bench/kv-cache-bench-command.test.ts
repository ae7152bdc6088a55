import { describe, expect, it } from "vitest";
import { kvCacheBenchHelp } from "./kv-cache-bench-command.js";

describe("ctxkit bench kv-cache --help", () => {
  it("lists the flags a live run needs (--live and the endpoint flags it reads)", () => {
    for (const flag of ["--live", "--model", "--base-url", "--vendor", "--api-key"]) expect(kvCacheBenchHelp).toContain(flag);
  });
});
