import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { runCli } from "./run-cli.js";

let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A workspace with its own ctxkit.config.json and the user's (run-cli.ts puts ~/.config inside the folder). */
async function workspace(files: { workspace?: object; user?: object } = {}): Promise<{ cwd: string; userConfig: string; workspaceConfig: string }> {
  const cwd = await mkdtemp(join(tmpdir(), "ctxkit-config-cli-"));
  const userConfig = join(cwd, ".config", "ctxkit", "config.json");
  const workspaceConfig = join(cwd, "ctxkit.config.json");
  await mkdir(join(cwd, ".config", "ctxkit"), { recursive: true });
  if (files.workspace) await writeFile(workspaceConfig, JSON.stringify(files.workspace));
  if (files.user) await writeFile(userConfig, JSON.stringify(files.user));
  await writeFile(join(cwd, "a.txt"), "a\n");
  return { cwd, userConfig, workspaceConfig };
}

type Body = { tools?: Array<{ function: { name: string } }>; messages: Array<{ role: string; content?: string | null }>; temperature?: number };
const bodies = () => server!.requests.map((request) => JSON.parse(request.body) as Body);
const toolNames = (body: Body) => (body.tools ?? []).map((tool) => tool.function.name);

describe("config file mistakes, named like flag mistakes", () => {
  it("suggests the key a typo meant, naming the file", async () => {
    const { cwd, workspaceConfig } = await workspace({ workspace: { modle: "qwen3:8b" } });
    const run = await runCli(["config"], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${workspaceConfig}: unknown key 'modle' (did you mean 'model'?).`);
  });

  it("reads config files saved with a UTF-8 byte-order mark (PowerShell 5.1, older Notepad)", async () => {
    const { cwd, userConfig, workspaceConfig } = await workspace();
    await writeFile(workspaceConfig, `\uFEFF${JSON.stringify({ maxIterations: 7 })}`);
    await writeFile(userConfig, `\uFEFF${JSON.stringify({ model: "qwen3:8b" })}`);
    const mcpConfig = join(cwd, "mcp.json");
    await writeFile(mcpConfig, `\uFEFF${JSON.stringify({ mcpServers: {} })}`);
    const run = await runCli(["config", "--json", "--mcp-config", mcpConfig], { cwd });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const { settings } = JSON.parse(run.stdout) as { settings: Record<string, { value?: unknown }> };
    expect(settings.maxIterations!.value).toBe(7);
    expect(settings.model!.value).toBe("qwen3:8b");
  });

  it("names the file an unknown tool came from, with the tool that was meant", async () => {
    const { cwd, userConfig } = await workspace({ user: { tools: ["read_file", "bassh"] } });
    const run = await runCli(["run", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "hi"], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Unknown tool: bassh (did you mean bash?). It is named in 'tools' of ${userConfig}.`);
  });
});

describe("a workspace's config and semantic tool search", () => {
  it("may not name the embeddings server, its model, its key variable or a GGUF file to load; the user's config may", async () => {
    const settings = [
      ["toolSearchEmbeddingsUrl", "http://127.0.0.1:8080/v1", "a cloned repository could send your searches"],
      ["toolSearchEmbeddingsModel", "nomic-embed-text", "it goes with the embeddings server, which only your config names"],
      ["toolSearchEmbeddingsApiKeyEnv", "OPENAI_API_KEY", "a cloned repository could send your API key"],
      ["toolSearchEmbeddingModelPath", "models/evil.gguf", "a cloned repository could make ctxkit load a model file it chose"],
    ] as const;
    for (const [key, value, why] of settings) {
      const refused = await workspace({ workspace: { [key]: value } });
      const run = await runCli(["run", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "hi"], { cwd: refused.cwd });
      expect(run.code, key).toBe(1);
      expect(run.stderr).toContain(`${refused.workspaceConfig}: '${key}' is not read from a workspace's config (${why}`);
      expect(run.stderr).toContain("Move it to ~/.config/ctxkit/config.json, or pass --tool-search-");
      const own = await workspace({ user: { [key]: value } });
      const allowed = await runCli(["config", "--json"], { cwd: own.cwd });
      expect(allowed.code, key).toBe(0);
      expect(JSON.parse(allowed.stdout).settings[key]).toMatchObject({ source: "user config", file: own.userConfig });
    }
  });
});

describe("a workspace's config and the API key", () => {
  it("may not choose the vendor: the key set in the environment never leaves for the vendor it names", async () => {
    server = await startOpenAIModelServer(["Hello."]);
    // The user's own config points at a local server; the cloned repository asks for openrouter.
    const { cwd, workspaceConfig } = await workspace({ workspace: { vendor: "openrouter" }, user: { baseURL: server.baseURL } });
    const run = await runCli(["run", "--model", "m", "hi"], { cwd, env: { CTXKIT_API_KEY: "sk-test-0123456789abcdef" } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${workspaceConfig}: 'vendor' is not read from a workspace's config (a cloned repository could send your API key to a server it chose).`);
    expect(server.requests).toHaveLength(0);
  });

  it("may not set the provider, the base URL or the key either; the user's config may", async () => {
    for (const [key, value] of [["provider", "anthropic"], ["baseURL", "http://127.0.0.1:8000/v1"], ["apiKey", "sk-from-the-repository-0000"]] as const) {
      const refused = await workspace({ workspace: { [key]: value } });
      const run = await runCli(["config"], { cwd: refused.cwd, env: { CTXKIT_API_KEY: "sk-test-0123456789abcdef" } });
      expect(run.code, key).toBe(1);
      expect(run.stderr).toContain(`'${key}' is not read from a workspace's config`);
      const own = await workspace({ user: { [key]: value } });
      const allowed = await runCli(["config", "--json"], { cwd: own.cwd });
      expect(allowed.code, key).toBe(0);
      expect(JSON.parse(allowed.stdout).settings[key]).toMatchObject({ source: "user config", file: own.userConfig });
    }
  });
});

describe("a workspace's tools", () => {
  it("cannot turn bash on: tools [\"all\"] in ctxkit.config.json leaves it out, and says so", async () => {
    server = await startOpenAIModelServer(["Done."]);
    const { cwd, workspaceConfig } = await workspace({ workspace: { tools: ["all"] } });
    const run = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "hi"], { cwd });
    expect(run.code).toBe(0);
    expect(toolNames(bodies()[0]!)).toContain("read_file");
    expect(toolNames(bodies()[0]!)).not.toContain("bash");
    expect(run.stderr).toContain(`${workspaceConfig}: 'tools' names bash, which your own settings do not turn on; left out`);
  });

  it("narrows the user's own list, which may name bash", async () => {
    server = await startOpenAIModelServer(["Done.", "Done."]);
    const own = await workspace({ user: { tools: ["all"] } });
    await runCli(["run", "--base-url", server.baseURL, "--model", "m", "hi"], { cwd: own.cwd });
    expect(toolNames(bodies()[0]!)).toContain("bash");
    const narrowed = await workspace({ user: { tools: ["all"] }, workspace: { tools: ["read_file", "bash"] } });
    await runCli(["run", "--base-url", server.baseURL, "--model", "m", "hi"], { cwd: narrowed.cwd });
    expect(toolNames(bodies()[1]!).filter((name) => ["read_file", "write_file", "grep", "bash"].includes(name)).sort()).toEqual(["bash", "read_file"]);
  });
});

describe("every behaviour setting in a config file", () => {
  it("turns notes, sub-agents and the status bar off and sets sampling from ctxkit.config.json", async () => {
    server = await startOpenAIModelServer(["Done."]);
    const { cwd } = await workspace({ workspace: { notes: "off", subAgents: false, statusBar: "off", temperature: 0.3, compression: "none", projectInstructions: false } });
    const run = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "hi"], { cwd });
    expect(run.code).toBe(0);
    const body = bodies()[0]!;
    expect(toolNames(body)).not.toContain("notes_read");
    expect(toolNames(body)).not.toContain("task");
    expect(body.temperature).toBe(0.3);
    expect(body.messages.some((message) => String(message.content ?? "").includes("<agent_status>"))).toBe(false);
  });

  it("applies a budget from the user's config, which a workspace may lower but not raise", async () => {
    server = await startOpenAIModelServer((_body, call) => ({ toolCalls: [{ name: "glob", arguments: { pattern: `*.${call}` } }] }));
    const { cwd } = await workspace({ user: { budgetTokens: 3000, budgetMode: "hard", maxOutputTokens: 50 }, workspace: { budgetTokens: 1_000_000, budgetMode: "soft", maxIterations: 30 } });
    const run = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "Find every file."], { cwd, timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("stopped (budget_exceeded)");
    const shown = await runCli(["config", "--json"], { cwd });
    expect(JSON.parse(shown.stdout).settings).toMatchObject({ budgetTokens: { value: 3000, source: "user config" }, budgetMode: { value: "hard", source: "user config" } });
  }, 90_000);
});

describe("ctxkit config --json", () => {
  it("prints every key with its value and its source: flag, variable, workspace file, user file, default, unset", async () => {
    const { cwd, workspaceConfig, userConfig } = await workspace({ workspace: { maxIterations: 7 }, user: { compression: "windowed", apiKey: "sk-user-secret-0123456789" } });
    const run = await runCli(["config", "--json", "--model", "m"], { cwd, env: { CTXKIT_STATUS_BAR: "append" } });
    expect(run.code).toBe(0);
    const { settings } = JSON.parse(run.stdout) as { settings: Record<string, Record<string, unknown>> };
    expect(settings).toMatchObject({
      model: { value: "m", source: "flag", flag: "--model" },
      statusBar: { value: "append", source: "environment", variable: "CTXKIT_STATUS_BAR" },
      maxIterations: { value: 7, source: "workspace config", file: workspaceConfig },
      compression: { value: "windowed", source: "user config", file: userConfig },
      notes: { value: "session", source: "default" },
      budgetTokens: { source: "unset" },
      apiKey: { value: "sk-…6789", source: "user config" },
    });
    expect(run.stdout).not.toContain("user-secret");
    expect(Object.keys(settings)).toContain("statusBarTodo");
  });
});
