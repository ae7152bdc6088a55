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
    expect(benchOutputPath(join(root, "src", "cli"), undefined, "bench-results/hardening.json")).toBe(join(root, "bench-results", "hardening.json"));
    expect(benchOutputPath(root, undefined, "bench-results/hardening.json")).toBe(join(root, "bench-results", "hardening.json"));
  });

  it("resolves --out against the folder it was run from", async () => {
    const root = await ctxkitProject();
    expect(benchOutputPath(join(root, "src"), "out.json", "bench-results/hardening.json")).toBe(join(root, "src", "out.json"));
  });

  it("writes to the system's temporary folder outside a ctxkit project", async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), "ctxkit-bench-elsewhere-"));
    await writeFile(join(elsewhere, "package.json"), JSON.stringify({ name: "someone-else" }));
    expect(benchOutputPath(elsewhere, undefined, "bench-results/hardening.json")).toBe(join(tmpdir(), "ctxkit-bench-results", "hardening.json"));
  });
});
