import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// The examples/ programs compile against the built package (`import … from "ctxkit"`) and run offline.
describe("examples", () => {
  it("compile and run, printing what they promise", { timeout: 180_000 }, () => {
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    execFileSync(process.execPath, [tsc, "-p", "examples/tsconfig.json"], { stdio: "inherit" });
    const run = (name: string) => execFileSync(process.execPath, [`examples/.build/${name}.js`], { encoding: "utf8" });
    expect(run("tool-agent")).toContain("[final_answer] after 2 model calls");
    expect(run("session-resume")).toMatch(/resumed yes, 2 stored messages.*\ncall 2 sent 3 messages/s);
    expect(run("custom-context-policy")).toContain("the model saw 229 characters of a 8000-character log");
    expect(run("deferred-tools")).toContain("tools sent: call_tool, tool_search");
    expect(run("inspect-from-code")).toMatch(/openai-log \(openai-log\): \d+ calls/);
  });
});
