import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// Benchmarks measure the agent ctxkit builds, so they build it the one way: `assembleAgent`.
// A file that truly cannot goes here with the reason in a comment at its call.
const justified = new Set<string>([]);

const importsCreateAgent = /import\s*(type\s*)?\{[^}]*\bcreateAgent\b[^}]*\}\s*from/;

describe("benchmarks", () => {
  it("build their agents with assembleAgent, never createAgent", () => {
    const files = execFileSync("git", ["ls-files", "src/bench/*.ts"], { encoding: "utf8" }).split("\n").filter(Boolean);
    expect(files.length).toBeGreaterThan(0);
    const offenders = files.filter((file) => !justified.has(file) && importsCreateAgent.test(readFileSync(file, "utf8")));
    expect(offenders, "call assembleAgent (src/agents/assemble-agent.ts), or list the file in `justified` with the reason").toEqual([]);
  });
});
