import { execFileSync, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const npmAvailable = spawnSync("npm", ["--version"], { encoding: "utf8" }).status === 0;
const tsc = resolve("node_modules/typescript/bin/tsc");

/**
 * Packs ctxkit as npm would publish it and installs the tarball into a fresh project without the
 * optional tokenizer and template packages: the library
 * must import, and its public declarations must typecheck strictly without skipLibCheck.
 */
describe.skipIf(!npmAvailable)("the packed ctxkit in a fresh project (needs npm; skipped when npm is unavailable)", () => {
  it("imports without the optional peers and typechecks strictly without skipLibCheck", async () => {
    const directory = await mkdtemp(join(tmpdir(), "ctxkit-pack-"));
    execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", directory], { encoding: "utf8", stdio: "pipe", timeout: 120_000 });
    const tarball = (await readdir(directory)).find((name) => name.endsWith(".tgz"));
    expect(tarball).toBeDefined();
    const project = join(directory, "project");
    execFileSync("mkdir", ["-p", project]);
    await writeFile(join(project, "package.json"), JSON.stringify({ name: "ctxkit-user", private: true, type: "module" }));
    // The npm cache holds tarballs but not registry metadata, so `npm install --offline` cannot
    // resolve ranges here: unpack the tarball as npm would and link only ctxkit's required
    // dependencies from this checkout (the optional peers stay absent, as in a library-only install).
    const modules = join(project, "node_modules");
    execFileSync("mkdir", ["-p", join(modules, "ctxkit")]);
    execFileSync("tar", ["-xzf", join(directory, tarball ?? ""), "-C", join(modules, "ctxkit"), "--strip-components=1"]);
    const manifest = JSON.parse(await readFile(resolve("package.json"), "utf8")) as { dependencies: Record<string, string> };
    // Node's types are linked in as a user has them; `typeRoots` pointing at this checkout's @types would
    // also resolve the optional peers' types (@types/pg) and hide a declaration that needs them.
    for (const name of [...Object.keys(manifest.dependencies), "@types/node", "undici-types"]) {
      await mkdir(dirname(join(modules, name)), { recursive: true });
      await symlink(resolve("node_modules", name), join(modules, name), "dir");
    }
    // Every entry but `ctxkit/providers/llama`, whose types are node-llama-cpp's: that one needs its peer installed.
    await writeFile(
      join(project, "index.ts"),
      [
        'import { createAgent, defineTool, ConfigError, type AgentEvent, type RunResult } from "ctxkit";',
        'import { createScriptedProvider } from "ctxkit/testing";',
        'import { createOpenAICompatible } from "ctxkit/providers/openai-compatible";',
        'import { createAnthropic } from "ctxkit/providers/anthropic";',
        'import { createWorkspaceTools, createTaskTool } from "ctxkit/tools";',
        'import { createBudget, createSkills, createRuntimeGuard, definePrompt } from "ctxkit/policies";',
        'import { connectMcpServers, type McpServersConfig } from "ctxkit/mcp";',
        'import { inspectFiles, createPrefixGuard, createQwen3TokenCounter } from "ctxkit/inspect";',
        'const servers: McpServersConfig = {};',
        'export { createWorkspaceTools, createTaskTool, createBudget, createSkills, createRuntimeGuard, definePrompt, connectMcpServers, servers, inspectFiles, createPrefixGuard, createQwen3TokenCounter };',
        'const echo = defineTool({ name: "echo", description: "Echoes.", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, execute: async ({ text }) => text });',
        'const agent = createAgent({ provider: createScriptedProvider({ turns: ["hi"] }), system: "s", tools: [echo] });',
        "const result: RunResult = await agent.run(\"hello\").result();",
        "const code: string | undefined = result.error?.code;",
        "const onEvent = (event: AgentEvent) => (event.type === \"tool_call_delta\" ? event.index : -1);",
        "export { agent, code, onEvent, ConfigError, createOpenAICompatible, createAnthropic };",
        "console.log(result.finalText);",
      ].join("\n"),
    );
    await writeFile(
      join(project, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", noEmit: true, skipLibCheck: false, types: ["node"] }, files: ["index.ts"] }),
    );
    const typecheck = spawnSync(process.execPath, [tsc, "-p", project], { encoding: "utf8", timeout: 300_000 });
    expect(typecheck.stdout + typecheck.stderr).toBe("");
    expect(typecheck.status).toBe(0);

    const installed = await readdir(join(project, "node_modules"));
    expect(installed).not.toContain("js-tiktoken");
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", 'const { getTokenCounter } = await import("ctxkit"); try { getTokenCounter("o200k").count("hi"); } catch (error) { console.log(error.code, error.message); }'], {
      cwd: project,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("dependency_missing");
    expect(run.stdout).toContain("npm install js-tiktoken");
  }, 600_000);
});
