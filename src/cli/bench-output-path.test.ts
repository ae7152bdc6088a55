import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { benchOutputPath } from "./bench-output-path.js";

async function ctxkitProject(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "ctxkit-bench-output-"));
  await writeFile(join(root, "package.json"), JSON.stringify({ name: "ctxkit" }));
  await mkdir(join(root, "src", "cli"), { recursive: true });
  return root;
}

describe("benchOutputPath", () => {
  it("puts the default in the project's bench-results/ even when run from a subfolder", async () => {
    const root = await ctxkitProject();
    expect(benchOutputPath({ cwd: join(root, "src", "cli"), env: {} }, undefined, "bench-results/hardening.json")).toBe(join(root, "bench-results", "hardening.json"));
    expect(benchOutputPath({ cwd: root, env: {} }, undefined, "bench-results/hardening.json")).toBe(join(root, "bench-results", "hardening.json"));
  });

  it("resolves --out against the folder it was run from", async () => {
    const root = await ctxkitProject();
    expect(benchOutputPath({ cwd: join(root, "src"), env: {} }, "out.json", "bench-results/hardening.json")).toBe(join(root, "src", "out.json"));
  });

  it("writes to the system's temporary folder outside a ctxkit project", async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), "ctxkit-bench-elsewhere-"));
    await writeFile(join(elsewhere, "package.json"), JSON.stringify({ name: "someone-else" }));
    expect(benchOutputPath({ cwd: elsewhere, env: process.env }, undefined, "bench-results/hardening.json")).toBe(join(tmpdir(), "ctxkit-bench-results", "hardening.json"));
    // The command's environment, not the process's: the CLI may run in-process with its own.
    expect(benchOutputPath({ cwd: elsewhere, env: { TMPDIR: `${elsewhere}/own/` } }, undefined, "bench-results/hardening.json")).toBe(join(elsewhere, "own", "ctxkit-bench-results", "hardening.json"));
    expect(benchOutputPath({ cwd: elsewhere, env: {} }, undefined, "bench-results/hardening.json")).toBe(join("/tmp", "ctxkit-bench-results", "hardening.json"));
  });
});
