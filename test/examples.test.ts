import { execFile, execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { cliEnvironment, runCli } from "./run-cli.js";

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

  // Issue 23: a library user with the workspace's config gets the agent `ctxkit run` builds.
  it("agent-like-cli sends byte-identical requests to `ctxkit run` with the same ctxkit.config.json", { timeout: 240_000 }, async () => {
    const mcp = await startWeatherServer();
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-agent-like-cli-"));
    await writeFile(join(workspace, "README.md"), "# Forecasts\n\nThis service answers with the weather of a city.\n");
    await writeFile(join(workspace, "AGENTS.md"), "Answer in one sentence.\n");
    await mkdir(join(workspace, "skills", "forecast"), { recursive: true });
    await writeFile(join(workspace, "skills", "forecast", "SKILL.md"), "---\nname: forecast\ndescription: Tell a city's weather. Use when the user asks about the weather.\n---\n\nCall the weather server's tool with the city's name.\n");
    const settings = {
      model: "scripted-model",
      // The session id would be the prompt-cache key; one key keeps the two runs' bodies comparable.
      cacheKey: "same-key",
      skills: ["skills"],
      mcpServers: { weather: { url: mcp.url } },
      compression: "ctxkit",
      statusBar: "append",
      // The time in each status would differ between the two runs; counters, TODO and state stay on.
      statusBarTimestamps: false,
      budgetTokens: 200_000,
      notes: "session",
    };
    await writeFile(join(workspace, "ctxkit.config.json"), JSON.stringify(settings, null, 2));
    // The person approved the workspace's server, as `ctxkit run` asks at a terminal (the user's config, under HOME = the workspace).
    await mkdir(join(workspace, ".config", "ctxkit"), { recursive: true });
    const approval = { workspace, server: "weather", definition: { url: new URL(mcp.url).href, headers: {} } };
    await writeFile(join(workspace, ".config", "ctxkit", "config.json"), JSON.stringify({ mcpApprovals: [approval] }));
    const task = "What is the weather in Oslo?";
    const turns = [
      { toolCalls: [{ name: "read_file", arguments: { path: "README.md" } }] },
      { toolCalls: [{ name: "skill", arguments: { name: "forecast" } }] },
      { toolCalls: [{ name: "mcp__weather__today", arguments: { city: "Oslo" } }] },
      { toolCalls: [{ name: "notes_read", arguments: {} }] },
      "It is sunny in Oslo.",
    ];
    const bodies = async (server: OpenAIModelServer) => server.requests.map((request) => request.body);
    let cliServer: OpenAIModelServer | undefined;
    let libraryServer: OpenAIModelServer | undefined;
    try {
      // Both runs see the same clock and the same random numbers (the status bar shows the time; the
      // tags around external content carry an id made of both), installed by one module: in this
      // process for the CLI, with --import for the example.
      const deterministic = join(workspace, ".deterministic.mjs");
      await writeFile(deterministic, deterministicModule);
      const environment = { CTXKIT_API_KEY: "test-key", ...(process.env.SHELL ? { SHELL: process.env.SHELL } : {}) };
      cliServer = await startOpenAIModelServer(turns);
      const { Date: realDate, random: realRandom } = { Date: globalThis.Date, random: Math.random };
      let cli: Awaited<ReturnType<typeof runCli>>;
      try {
        await import(pathToFileURL(deterministic).href);
        cli = await runCli(["run", "--trust-workspace", "--yes", task], { cwd: workspace, env: { ...environment, CTXKIT_BASE_URL: cliServer.baseURL }, timeoutMs: 120_000 });
      } finally {
        globalThis.Date = realDate;
        Math.random = realRandom;
      }
      expect(cli!.stderr).not.toMatch(/mcp:|skills:|declined|refused/);
      expect(cli!.code).toBe(0);

      // The same workspace, as new: the library's run starts from what the CLI's started from.
      await rm(join(workspace, ".ctxkit"), { recursive: true, force: true });
      libraryServer = await startOpenAIModelServer(turns);
      const example = await promisify(execFile)(process.execPath, ["--import", pathToFileURL(deterministic).href, "examples/.build/agent-like-cli.js", task], {
        env: { ...cliEnvironment(workspace, environment), CTXKIT_WORKSPACE: workspace, CTXKIT_TRUST_WORKSPACE: "1", CTXKIT_YES: "1", CTXKIT_BASE_URL: libraryServer.baseURL },
        encoding: "utf8",
        timeout: 120_000,
      });
      expect(example.stdout).toContain("[final_answer] 5 model call(s)");

      const sent = await bodies(cliServer);
      expect(sent).toHaveLength(5);
      // Everything was on: the skill, the MCP tool, the status bar's tail, the budget's line, notes, tool search for late MCP tools.
      const last = sent.at(-1)!;
      for (const text of ["forecast", "mcp__weather__today", "notes_read", "tool_search", "Answer in one sentence.", "sunny in Oslo"]) expect(last).toContain(text);
      expect(await bodies(libraryServer)).toEqual(sent);
    } finally {
      await cliServer?.close();
      await libraryServer?.close();
      await mcp.close();
    }
  });
});

/** A clock that stands still and a seeded Math.random: what differs between two runs at different times. */
const deterministicModule = `
const fixed = Date.UTC(2026, 0, 1, 12, 0, 0);
const RealDate = Date;
globalThis.Date = class FixedDate extends RealDate {
  constructor(...args) { if (args.length === 0) super(fixed); else super(...args); }
  static now() { return fixed; }
};
let seed = 42;
Math.random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
`;

/** A streamable-HTTP MCP server on 127.0.0.1 with one read-only tool (a workspace's config may name a URL, not start a program). */
async function startWeatherServer(): Promise<{ url: string; close(): Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const newServer = () => {
    const server = new Server({ name: "weather", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: "today", description: "Today's weather in a city.", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }, annotations: { readOnlyHint: true } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, (request) => ({ content: [{ type: "text", text: `sunny in ${String(request.params.arguments?.city)}` }] }));
    return server;
  };
  // One MCP session per client: the CLI's run and the example's each connect once.
  const http = createServer((request, response) => {
    const id = request.headers["mcp-session-id"];
    const known = typeof id === "string" ? transports.get(id) : undefined;
    if (known) return void known.handleRequest(request, response);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sessionId) => void transports.set(sessionId, transport) });
    void newServer().connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: async () => {
      for (const transport of transports.values()) await transport.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
