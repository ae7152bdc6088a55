import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

describe("ctxkit demo", () => {
  it("fixes the bug in a real workspace with a scripted model and prints the per-call token table", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-demo-test-"));
    const run = await runCli(["demo", "--dir", join(cwd, "shop")], { cwd, timeoutMs: 60_000 });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("SCRIPTED model");
    expect(run.stdout).toContain("Error (not_found)");
    expect(run.stdout).toContain("all pricing checks passed");
    expect(run.stdout).toMatch(/call\s+prompt tokens\s+reusable\s+new/);
    expect(run.stdout).toMatch(/total\s+[\d,]+\s+[\d,]+\s+[\d,]+\s+\d+\.\d% of prompt tokens reusable/);
    expect(await readFile(join(cwd, "shop", "src", "discount.js"), "utf8")).toContain("price * (1 - percent / 100)");
  });

  it("refuses a --dir that is a file, naming the flag, and leaves the file as it was", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-demo-file-"));
    await writeFile(join(cwd, "notes.txt"), "mine\n");
    const run = await runCli(["demo", "--dir", "notes.txt"], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`ctxkit demo: --dir ${join(cwd, "notes.txt")} is a file; give a folder that is empty or does not exist yet.\n`);
    expect(await readFile(join(cwd, "notes.txt"), "utf8")).toBe("mine\n");
  });

  it("is not changed by the user's config file (it stays the same offline run everywhere)", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-demo-test-"));
    // run-cli.ts sets HOME to cwd, so this is ~/.config/ctxkit/config.json for the child.
    await mkdir(join(cwd, ".config", "ctxkit"), { recursive: true });
    await writeFile(join(cwd, ".config", "ctxkit", "config.json"), JSON.stringify({ maxIterations: 2, compression: "none" }));
    const run = await runCli(["demo", "--dir", join(cwd, "shop"), "--json"], { cwd, timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { stopReason: string }).stopReason).toBe("final_answer");
  });

  it("gives the table as JSON with --json", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-demo-test-"));
    const run = await runCli(["demo", "--dir", join(cwd, "shop"), "--json"], { cwd, timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { rows: Array<{ promptTokens: number; reusableTokens: number; newTokens: number }>; stopReason: string };
    expect(report.stopReason).toBe("final_answer");
    expect(report.rows).toHaveLength(8);
    for (const [index, row] of report.rows.entries()) {
      expect(row.promptTokens).toBe(row.reusableTokens + row.newTokens);
      if (index > 0) expect(row.reusableTokens).toBeGreaterThan(report.rows[index - 1]!.promptTokens * 0.9);
    }
  });
});
