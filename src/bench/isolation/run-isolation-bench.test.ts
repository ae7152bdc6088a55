import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { DelegationBenchResult } from "./run-delegation-bench.js";
import { formatIsolationBench, runIsolationBench } from "./run-isolation-bench.js";

async function createSource(): Promise<string> {
  const source = await mkdtemp(join(tmpdir(), "ctxkit-isolation-source-"));
  await mkdir(join(source, "session"), { recursive: true });
  const filler = Array.from({ length: 120 }, (_, index) => `export const value${index} = ${index}; // unrelated code the search has to read past`).join("\n");
  await writeFile(join(source, "index.ts"), 'export * from "./session/load-session.js";\n');
  await writeFile(join(source, "session", "load-session.ts"), `${filler}\nif (torn) warnings.push({ code: "torn_last_line" });\n`);
  await writeFile(join(source, "session", "session-store.ts"), `${filler}\nif (warning.code === "torn_last_line") keepTornBytes();\n`);
  await writeFile(join(source, "session", "load-session.test.ts"), 'expect(code).toBe("torn_last_line");\n');
  return source;
}

describe("the isolation bench", () => {
  it("keeps the search out of the main context with explore and fork, and a fork's first call is served from the cache", async () => {
    const source = await createSource();
    const result = await runIsolationBench({ source, limit: 1 });
    const delegation = result.sections.find((section) => section.name === "delegation")!.result as DelegationBenchResult;
    const byArm = Object.fromEntries(delegation.runs.map((run) => [run.arm, run]));
    expect(Object.keys(byArm)).toEqual(["main", "explore", "fork"]);
    // Every arm finds the same two handlers; the test file is not reported.
    for (const run of delegation.runs) {
      expect(run.answer).toContain("session/load-session.ts:121");
      expect(run.answer).toContain("session/session-store.ts:121");
      expect(run.answer).not.toContain(".test.ts");
    }
    expect(byArm.main!.childCalls).toBe(0);
    expect(byArm.explore!.childCalls).toBe(3);
    expect(byArm.fork!.childCalls).toBe(3);
    // The files read stay in the child: the main context is smaller by about the two files' size.
    expect(byArm.explore!.mainContextTokens).toBeLessThan(byArm.main!.mainContextTokens - 2000);
    expect(byArm.fork!.mainContextTokens).toBeLessThan(byArm.main!.mainContextTokens - 2000);
    expect(byArm.fork!.childFirstCallCachedShare).toBeGreaterThan(0.9);
    expect(byArm.main!.childFirstCallCachedShare).toBeUndefined();
    for (const run of delegation.runs) expect(run.cost).toBeGreaterThan(0);

    const again = await runIsolationBench({ source, limit: 1 });
    // The same numbers again (the budget run names its scratch folder, which differs per run).
    const numbers = (sections: typeof result.sections) => sections.map((section) => ({ ...section, result: { ...(section.result as object), workspace: undefined } }));
    expect(numbers(again.sections)).toEqual(numbers(result.sections));
    const table = formatIsolationBench(result);
    expect(table).toMatch(/arm\s+main ctx tokens\s+total tokens\s+cached share\s+child 1st call cached\s+cost \(gpt-4\.1\)/);
    expect(table).toMatch(/\(c\) delegates to a fork\s+[\d,]+\s+[\d,]+\s+[\d.]+%\s+9\d\.\d%/);
  }, 60_000);
});
