import { describe, expect, it } from "vitest";
import type { Tool, ToolContext, ToolOutput } from "../types/index.js";
import { connectMcpServers, type McpToolsChange } from "./connect-mcp-servers.js";
import { createMcpPolicy } from "./create-mcp-policy.js";
import { findContextTaint } from "../security/context-taint.js";
import { isRunning, scriptServer } from "./test-support/mcp-test-servers.js";

// The tests' own stdio server (test-support/script-server.mjs) misbehaves on purpose.
const timeout = 60_000;

function call(tool: Tool | undefined, args: Record<string, unknown> = {}, signal = new AbortController().signal): Promise<ToolOutput> {
  if (!tool) throw new Error("tool not found");
  const context: ToolContext = { signal, toolCallId: "call-1" };
  return tool.execute(args, context) as Promise<ToolOutput>;
}

async function serverPid(tools: readonly Tool[]): Promise<number> {
  return Number((await call(tools.find((tool) => tool.name === "mcp__script__pid"))).content);
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200 && !condition(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("hostile MCP servers", () => {
  it("warns about servers that cannot start or die before the handshake, and keeps the others", async () => {
    const connections = await connectMcpServers({
      missing: { command: "/nonexistent/mcp-server", args: [], env: {} },
      quitter: scriptServer("exit-at-start"),
      script: scriptServer(),
    });
    try {
      expect(connections.warnings.map((warning) => [warning.code, warning.server])).toEqual([
        ["server_failed", "missing"],
        ["server_failed", "quitter"],
      ]);
      expect(connections.warnings[1]!.message).toContain("refusing to start");
      expect(connections.servers.map((server) => server.name)).toEqual(["script"]);
      expect((await call(connections.tools.find((tool) => tool.name === "mcp__script__echo"), { message: "hi" })).content).toBe("echo: hi");
    } finally {
      await connections.close();
    }
  }, timeout);

  it("answers a call with an error result when the server dies in the middle of it, and later calls too", async () => {
    const connections = await connectMcpServers({ script: scriptServer() });
    try {
      const find = (name: string) => connections.tools.find((tool) => tool.name === name);
      const died = await call(find("mcp__script__die"));
      expect(died).toMatchObject({ isError: true, errorKind: "failed" });
      expect(died.content).toContain("MCP server 'script'");
      const after = await call(find("mcp__script__echo"), { message: "anyone?" });
      expect(after.isError).toBe(true);
      expect(after.content).toContain("not available");
    } finally {
      await connections.close();
    }
  }, timeout);

  it("ends a hanging call at its time limit, and the server still answers the next one", async () => {
    const connections = await connectMcpServers({ script: scriptServer() }, { callTimeoutMs: 1_000 });
    try {
      const find = (name: string) => connections.tools.find((tool) => tool.name === name);
      expect(await call(find("mcp__script__hang"))).toMatchObject({ isError: true, errorKind: "timeout" });
      expect((await call(find("mcp__script__echo"), { message: "ok" })).content).toBe("echo: ok");
    } finally {
      await connections.close();
    }
  }, timeout);

  it("turns a malformed result into an error result, cuts a huge one, and survives garbage on stdout", async () => {
    const connections = await connectMcpServers({ script: scriptServer("garbage") }, { maxResultCharacters: 10_000 });
    try {
      const find = (name: string) => connections.tools.find((tool) => tool.name === name);
      expect(await call(find("mcp__script__malformed"))).toMatchObject({ isError: true });
      const huge = await call(find("mcp__script__huge"));
      expect(huge.content.length).toBeLessThan(10_200);
      expect(huge.content).toContain("[… cut: the MCP result had 2,000,000+ characters; 10,000 are shown]");
      expect((await call(find("mcp__script__echo"), { message: "still" })).content).toBe("echo: still");
    } finally {
      await connections.close();
    }
  }, timeout);

  it("reads an answer over the MCP SDK's 10 MB stdio limit (a 14 MB log from a filesystem server) and keeps the server", async () => {
    const connections = await connectMcpServers({ script: scriptServer() }, { maxResultCharacters: 10_000 });
    try {
      const find = (name: string) => connections.tools.find((tool) => tool.name === name);
      const huger = await call(find("mcp__script__huger"));
      expect(huger.isError).toBeFalsy();
      expect(huger.content).toContain("[… cut: the MCP result had 12,000,000+ characters; 10,000 are shown]");
      expect((await call(find("mcp__script__echo"), { message: "still" })).content).toBe("echo: still");
    } finally {
      await connections.close();
    }
  }, timeout);

  it("ends the child process on close", async () => {
    const connections = await connectMcpServers({ script: scriptServer() });
    const pid = await serverPid(connections.tools);
    expect(isRunning(pid)).toBe(true);
    await connections.close();
    await waitFor(() => !isRunning(pid));
    expect(isRunning(pid)).toBe(false);
  }, timeout);
});

describe("notifications/tools/list_changed", () => {
  it("reports added tools as deferred and removed ones, never touching the frozen tools; the policy appends one delta message", async () => {
    const connections = await connectMcpServers({ script: scriptServer() }, { defer: "never" });
    const policy = createMcpPolicy(connections);
    const changes: McpToolsChange[] = [];
    connections.onToolsChanged((change) => changes.push(change));
    try {
      const before = connections.tools.map((tool) => tool.name);
      const find = (name: string) => connections.tools.find((tool) => tool.name === name);
      await call(find("mcp__script__add_tool"));
      await waitFor(() => changes.length >= 1);
      expect(changes[0]!.added.map((tool) => [tool.name, tool.deferred, tool.source])).toEqual([["mcp__script__late", true, "external"]]);
      expect(changes[0]!.removed).toEqual([]);
      expect((await call(connections.findTool("mcp__script__late"), { n: 7 })).content).toBe("late: 7");

      await call(find("mcp__script__remove_tool"));
      await waitFor(() => changes.length >= 2);
      expect(changes[1]).toMatchObject({ server: "script", added: [], removed: ["mcp__script__echo"] });
      expect(connections.tools.map((tool) => tool.name)).toEqual(before);
      const removed = await call(find("mcp__script__echo"), { message: "x" });
      expect(removed).toMatchObject({ isError: true, errorKind: "unknown_tool" });
      expect(removed.content).toContain("no longer offers the tool 'echo'");

      const state = {
        messages: [{ role: "user" as const, content: "go", meta: { id: "m1", origin: "user" as const, createdAt: "2026-01-01T00:00:00.000Z" } }],
        now: new Date("2026-01-01T00:00:01.000Z"),
      };
      const edits = await policy.prepareContext!(state as never);
      expect(edits).toHaveLength(1);
      const appended = edits![0]!;
      if (appended.type !== "append") throw new Error("expected an append");
      expect(appended.messages.map((message) => message.meta)).toEqual([
        { id: "m1~mcp-tools", origin: "harness", createdAt: "2026-01-01T00:00:01.000Z", derived: { kind: "mcp_tools", server: "script", added: ["mcp__script__late"], removed: [] } },
        { id: "m1~mcp-tools-1", origin: "harness", createdAt: "2026-01-01T00:00:01.000Z", derived: { kind: "mcp_tools", server: "script", added: [], removed: ["mcp__script__echo"] } },
      ]);
      expect(appended.messages[0]!.role === "user" && appended.messages[0]!.content).toContain('- mcp__script__late: A tool that appeared after the start.\n  parameters: {"type":"object","properties":{"n":{"type":"number"}}');
      expect(await policy.prepareContext!(state as never)).toBeUndefined();
    } finally {
      policy.dispose();
      await connections.close();
    }
  }, timeout);

  it("a workspace's (untrusted) server: its tools are named for the runtime guard, and the message announcing its added tools carries their provenance", async () => {
    const connections = await connectMcpServers({ script: { ...scriptServer(), trust: "untrusted" }, mine: scriptServer() }, { defer: "never" });
    const policy = createMcpPolicy(connections);
    const changes: McpToolsChange[] = [];
    connections.onToolsChanged((change) => changes.push(change));
    try {
      expect(connections.untrustedTools.length).toBeGreaterThan(0);
      expect(connections.untrustedTools.every((name) => name.startsWith("mcp__script__"))).toBe(true);
      expect(connections.tools.filter((tool) => tool.name.startsWith("mcp__script__")).map((tool) => tool.name)).toEqual(connections.untrustedTools);
      await call(connections.tools.find((tool) => tool.name === "mcp__script__add_tool"));
      await waitFor(() => changes.length >= 1);
      expect(changes[0]).toMatchObject({ server: "script", untrusted: true });
      const state = { messages: [{ role: "user" as const, content: "go", meta: { id: "m1", origin: "user" as const, createdAt: "2026-01-01T00:00:00.000Z" } }], now: new Date("2026-01-01T00:00:01.000Z") };
      const edits = await policy.prepareContext!(state as never);
      const appended = edits![0]!;
      if (appended.type !== "append") throw new Error("expected an append");
      expect(appended.messages[0]!.meta.provenance).toEqual({ untrusted: [{ source: "the tools the MCP server 'script' added", trust: "external" }] });
      expect(findContextTaint(appended.messages)).toHaveLength(1);
    } finally {
      policy.dispose();
      await connections.close();
    }
  }, timeout);

  it("reads the list once for a flood of notifications that arrive while a refresh waits, not once each", async () => {
    const connections = await connectMcpServers({ script: scriptServer() }, { defer: "never" });
    try {
      const find = (name: string) => connections.tools.find((tool) => tool.name === name);
      expect((await call(find("mcp__script__flood"))).content).toBe("flooded");
      await new Promise((resolve) => setTimeout(resolve, 500));
      // One read per refresh that starts while notifications still arrive (a handful; more on a loaded
      // machine, where the flood takes longer), never one per notification (2,001 before).
      expect(Number((await call(find("mcp__script__lists"))).content)).toBeLessThan(100);
    } finally {
      await connections.close();
    }
  }, timeout);
});
