import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { scriptServer } from "../src/mcp/test-support/mcp-test-servers.js";
import { runCli } from "./run-cli.js";

// Through the CLI (in-process): ctxkit starts the tests' stdio MCP server (built on the MCP SDK's
// Server); the scripted model on a loopback OpenAI-compatible server makes it add a tool, which
// sends notifications/tools/list_changed, then calls the new tool through call_tool.
let model: OpenAIModelServer | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

interface Body {
  messages: Array<{ role: string; content?: unknown }>;
  tools?: Array<{ function: { name: string } }>;
}

const slow = 120_000;

describe("ctxkit run with a server whose tool list changes mid-run", () => {
  it("calls the added tool through call_tool, checks its schema, refuses a removed tool, and every request extends the previous one", async () => {
    model = await startOpenAIModelServer([
      { toolCalls: [{ name: "mcp__script__add_tool", arguments: {} }] },
      { toolCalls: [{ name: "call_tool", arguments: { name: "mcp__script__late", arguments: { n: 7 } } }] },
      { toolCalls: [{ name: "call_tool", arguments: { name: "mcp__script__late", arguments: { n: "seven" } } }] },
      { toolCalls: [{ name: "mcp__script__remove_tool", arguments: {} }] },
      { toolCalls: [{ name: "call_tool", arguments: { name: "mcp__script__echo", arguments: { message: "gone?" } } }] },
      "The late tool answered 7.",
    ]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-cli-mcp-late-"));
    const config = join(cwd, "mcp.json");
    await writeFile(config, JSON.stringify({ mcpServers: { script: scriptServer() } }));
    // The server's results are untrusted content (issue 24): the user lets these calls run under that taint.
    await mkdir(join(cwd, ".config", "ctxkit"), { recursive: true });
    await writeFile(join(cwd, ".config", "ctxkit", "config.json"), JSON.stringify({ allowUnderTaint: ["mcp__script__add_tool", "mcp__script__remove_tool", "call_tool", "mcp__script__late", "mcp__script__echo"] }));
    const run = await runCli(
      ["run", "--base-url", model.baseURL, "--model", "m", "--yes", "--json", "--status-bar", "off", "--mcp-config", config, "Use the late tool."],
      { cwd, timeoutMs: 90_000 },
    );
    expect(run.stderr).not.toContain("mcp:");
    expect(run.code).toBe(0);
    const events = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as { type: string; declared?: boolean });
    expect(events.filter((event) => event.type === "cache_break" && event.declared !== true)).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });

    const raw = model.requests.map((request) => request.body);
    const bodies = raw.map((body) => JSON.parse(body) as Body);
    expect(bodies).toHaveLength(6);
    // The route exists from the first call, and the tools array never changes.
    const names = bodies[0]!.tools!.map((tool) => tool.function.name);
    expect(names).toEqual(expect.arrayContaining(["call_tool", "tool_search", "mcp__script__add_tool"]));
    expect(names).not.toContain("mcp__script__late");
    for (const body of bodies) expect(JSON.stringify(body.tools)).toBe(JSON.stringify(bodies[0]!.tools));
    // Byte-prefix extensions: each request's messages, as sent, start with the previous request's.
    for (let index = 1; index < bodies.length; index += 1) {
      const previous = JSON.stringify(bodies[index - 1]!.messages).slice(0, -1);
      expect(JSON.stringify(bodies[index]!.messages).startsWith(previous)).toBe(true);
    }

    const toolResults = bodies[5]!.messages.filter((message) => message.role === "tool").map((message) => String(message.content));
    expect(toolResults).toHaveLength(5);
    expect(toolResults[1]).toContain("late: 7");
    expect(toolResults[2]).toContain("Invalid arguments for 'mcp__script__late'");
    expect(toolResults[2]).toContain("argument 'n' must be number");
    expect(toolResults[4]).toContain("The tool 'mcp__script__echo' is no longer available");
    // The delta right after add_tool's result names the new tool with its schema.
    const afterAdd = bodies[1]!.messages.at(-1)!;
    expect(afterAdd.role).toBe("user");
    expect(String(afterAdd.content)).toMatch(/^<mcp_tools_changed server="script">[\s\S]*mcp__script__late/);
  }, slow);
});
