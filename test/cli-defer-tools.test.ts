import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { startEmbeddingsTestServer } from "../src/tools/search/test-support/embeddings-test-server.js";
import { runCli } from "./run-cli.js";

let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Body = { tools: Array<{ function: { name: string } }>; messages: Array<{ role: string; content?: unknown }> };

describe("ctxkit run --defer-tools", () => {
  it("all: sends tool_search and call_tool instead of the workspace tools, and a found tool runs through call_tool", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-defer-"));
    await writeFile(join(workspace, "notes.txt"), "deferred tools work\n");
    server = await startOpenAIModelServer([
      { toolCalls: [{ id: "s1", name: "tool_search", arguments: { query: "read a file" } }] },
      { toolCalls: [{ id: "c1", name: "call_tool", arguments: { name: "read_file", arguments: { path: "notes.txt" } } }] },
      "It says: deferred tools work.",
    ]);
    const result = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--defer-tools", "all", "--status-bar", "off", "read notes.txt"], { cwd: workspace });
    expect(result.code, result.stderr).toBe(0);
    const bodies = server.requests.map((request) => JSON.parse(request.body) as Body);
    const names = bodies[0]!.tools.map((tool) => tool.function.name);
    expect(names).toContain("tool_search");
    expect(names).toContain("call_tool");
    expect(names).not.toContain("read_file");
    expect(JSON.stringify(bodies[2]!.tools)).toBe(JSON.stringify(bodies[0]!.tools));
    const last = bodies[2]!.messages;
    expect(last.some((message) => message.role === "user" && String(message.content).startsWith("<discovered_tools>"))).toBe(true);
    expect(last.some((message) => message.role === "tool" && String(message.content).includes("deferred tools work"))).toBe(true);
  });

  it("with --tool-search-embeddings-url, tool_search asks the embedding server (the tools once, then the query) and the run goes on", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-defer-"));
    await writeFile(join(workspace, "notes.txt"), "semantic search works\n");
    const embeddings = await startEmbeddingsTestServer();
    try {
      server = await startOpenAIModelServer([
        { toolCalls: [{ id: "s1", name: "tool_search", arguments: { query: "show me what a file says" } }] },
        { toolCalls: [{ id: "c1", name: "call_tool", arguments: { name: "read_file", arguments: { path: "notes.txt" } } }] },
        "It says: semantic search works.",
      ]);
      const args = ["run", "--base-url", server.baseURL, "--model", "m", "--defer-tools", "all", "--status-bar", "off"];
      const result = await runCli([...args, "--tool-search-embeddings-url", embeddings.baseURL, "--tool-search-embeddings-model", "test-embed", "read notes.txt"], { cwd: workspace });
      expect(result.code, result.stderr).toBe(0);
      expect(embeddings.requests.map((request) => request.model)).toEqual(["test-embed", "test-embed"]);
      expect(embeddings.requests[0]!.input.some((text) => text.startsWith("read file:"))).toBe(true);
      expect(embeddings.requests[1]!.input).toEqual(["show me what a file says"]);
      const last = (JSON.parse(server.requests.at(-1)!.body) as Body).messages;
      expect(last.some((message) => message.role === "tool" && String(message.content).includes("semantic search works"))).toBe(true);
      // Nothing deferred: the model is never asked, and the run says so.
      await server.close();
      server = await startOpenAIModelServer(["Hi."]);
      const unused = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--status-bar", "off", "--tool-search-embeddings-url", embeddings.baseURL, "--tool-search-embeddings-model", "test-embed", "hi"], { cwd: workspace });
      expect(unused.code, unused.stderr).toBe(0);
      expect(unused.stderr).toContain("is not used: no tool is deferred. It ranks tool_search's matches, which needs deferTools auto or all (--defer-tools) or MCP servers.");
      // A model without its server: refused before anything starts, naming the flag's key.
      const half = await runCli([...args, "--tool-search-embeddings-model", "test-embed", "hi"], { cwd: workspace });
      expect(half.code).not.toBe(0);
      expect(half.stderr).toContain("--tool-search-embeddings-url / toolSearchEmbeddingsUrl");
      // A key variable that is not set: named, with the setting that names it (not the chat model's --api-key advice).
      const keyless = await runCli([...args, "--tool-search-embeddings-url", embeddings.baseURL, "--tool-search-embeddings-model", "test-embed", "--tool-search-embeddings-api-key-env", "EMBED_KEY", "hi"], { cwd: workspace });
      expect(keyless.code).not.toBe(0);
      expect(keyless.stderr).toContain("takes its API key from the environment variable EMBED_KEY, which is not set. Set EMBED_KEY, name another variable with --tool-search-embeddings-api-key-env");
      expect(keyless.stderr).not.toContain("CTXKIT_API_KEY");
      // Set in the CLI's environment (not the test process's): sent as the bearer token.
      const before = embeddings.requests.length;
      await server.close();
      server = await startOpenAIModelServer([{ toolCalls: [{ id: "s1", name: "tool_search", arguments: { query: "read a file" } }] }, "Done."]);
      const keyed = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--defer-tools", "all", "--status-bar", "off", "--tool-search-embeddings-url", embeddings.baseURL, "--tool-search-embeddings-model", "test-embed", "--tool-search-embeddings-api-key-env", "EMBED_KEY", "hi"], { cwd: workspace, env: { EMBED_KEY: "sk-embed-0123456789" } });
      expect(keyed.code, keyed.stderr).toBe(0);
      expect(embeddings.requests.length).toBeGreaterThan(before);
      expect(embeddings.requestHeaders.slice(before).map((headers) => headers.authorization)).toEqual(embeddings.requestHeaders.slice(before).map(() => "Bearer sk-embed-0123456789"));
    } finally {
      await embeddings.close();
    }
  });

  it("rejects an unknown mode with the allowed values (like --status-bar)", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-defer-"));
    const result = await runCli(["run", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--defer-tools", "sometimes", "hi"], { cwd: workspace });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Unknown --defer-tools mode 'sometimes'. Use one of: auto, all, off.");
  });
});
