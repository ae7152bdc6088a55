import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

const corpus = join(process.cwd(), "..", "shared", "corpus");

describe("ctxkit bench disclosure", () => {
  it.skipIf(!existsSync(join(corpus, "tau-bench")))(
    "runs offline on a small catalog, prints its tables, and writes JSON with 0 undeclared cache breaks",
    async () => {
      const out = join(await mkdtemp(join(tmpdir(), "ctxkit-disclosure-")), "disclosure.json");
      const result = await runCli(["bench", "disclosure", "--corpus", corpus, "--sizes", "10", "--mcp", "recorded", "--queries", "6", "--out", out], { cwd: process.cwd(), timeoutMs: 200_000 });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain("1. Cache safety on the wire");
      expect(result.stdout).toContain("Undeclared cache breaks: 0");
      const report = JSON.parse(await readFile(out, "utf8")) as {
        cacheSafety: { undeclaredBreaks: number; brokenAt: number[]; requests: number; prefixExtensions: number; checks: Record<string, boolean>; mcpListChanged: unknown; steps: Array<{ name: string; requests: number }> };
        tokens: Array<{ tools: number; inline: { perCall: number[]; total: number }; disclosure: { perCall: number[]; total: number } }>;
        search: { rows: Array<{ options: string; half: string; domain: string; queries: number; recallAt5: number; mrr: number }> };
        catalog: { realTools: number; mcp: { mode: string } };
      };
      expect(report.cacheSafety.undeclaredBreaks).toBe(0);
      expect(report.cacheSafety.brokenAt).toEqual([]);
      expect(report.cacheSafety.prefixExtensions).toBe(report.cacheSafety.requests - 1);
      expect(Object.values(report.cacheSafety.checks).every(Boolean)).toBe(true);
      // A real stdio server sent list_changed mid-session; the added tool ran through call_tool, with the bodies still extending.
      expect(report.cacheSafety.mcpListChanged).toEqual({ server: "desk", added: ["mcp__desk__issue_refund"], calledTool: "mcp__desk__issue_refund", result: "Refunded 120 for reservation 8JX2WO." });
      expect(report.cacheSafety.steps.at(-1)).toEqual({ name: "MCP list_changed: a server adds a tool, call it", requests: 3 });
      expect(result.stdout).toContain("MCP list_changed: server 'desk' (stdio) added mcp__desk__issue_refund");
      expect(report.catalog.mcp.mode).toBe("recorded");
      expect(report.tokens).toHaveLength(1);
      expect(report.tokens[0]!.tools).toBe(10);
      expect(report.tokens[0]!.inline.perCall).toHaveLength(2);
      expect(report.tokens[0]!.disclosure.perCall).toHaveLength(3);
      expect(report.tokens[0]!.disclosure.total).toBe(report.tokens[0]!.disclosure.perCall.reduce((sum, value) => sum + value, 0));
      const measured = report.search.rows.filter((row) => row.half === "measure" && row.domain === "all");
      expect(measured.map((row) => row.options)).toEqual(["plain", "defaults", "tuned"]);
      for (const row of report.search.rows) {
        expect(row.recallAt5).toBeGreaterThanOrEqual(0);
        expect(row.recallAt5).toBeLessThanOrEqual(1);
        expect(row.mrr).toBeLessThanOrEqual(1);
      }
    },
    240_000,
  );

  it("explains its options in --help", async () => {
    const result = await runCli(["bench", "disclosure", "--help"], { cwd: process.cwd() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("--mcp <mode>");
  });
});
