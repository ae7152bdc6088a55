import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tool, ToolContext, ToolOutput } from "../types/index.js";
import { connectMcpServers, type McpConnections } from "./connect-mcp-servers.js";
import { everythingServer, filesystemServer } from "./test-support/mcp-test-servers.js";

// Real servers from npm, started over stdio by the test: @modelcontextprotocol/server-everything and server-filesystem.
const slow = { timeout: 60_000 };

function call(tool: Tool | undefined, args: Record<string, unknown>, signal = new AbortController().signal): Promise<ToolOutput> {
  if (!tool) throw new Error("tool not found");
  const context: ToolContext = { signal, toolCallId: "call-1" };
  return tool.execute(args, context) as Promise<ToolOutput>;
}

describe("connectMcpServers with @modelcontextprotocol/server-everything", () => {
  let connections: McpConnections;
  const find = (name: string) => connections.tools.find((tool) => tool.name === name);

  beforeAll(async () => {
    connections = await connectMcpServers({ everything: everythingServer() }, { callTimeoutMs: 20_000, defer: "never" });
  }, 60_000);
  afterAll(() => connections.close());

  it("lists the server's tools under prefixed, provider-safe names, sorted, as external tools", () => {
    expect(connections.warnings).toEqual([]);
    const names = connections.tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["mcp__everything__echo", "mcp__everything__get-sum", "mcp__everything__trigger-long-running-operation"]));
    expect(names).toEqual([...names].sort());
    expect(Object.isFrozen(connections.tools)).toBe(true);
    for (const tool of connections.tools) {
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(tool.source).toBe("external");
      expect(tool.parameters.type).toBe("object");
      expect(tool.parameters.$schema).toBeUndefined();
      expect(tool.deferred).toBeUndefined();
    }
    expect(find("mcp__everything__get-sum")!.parameters).toMatchObject({ properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] });
    // The server marks get-sum read-only: no confirmation, may run in parallel.
    expect(find("mcp__everything__get-sum")!.requiresConfirmation).toBe(false);
    expect(connections.servers).toEqual([{ name: "everything", tools: connections.tools.length }]);
  });

  it("marks the tools the server annotates idempotentHint as idempotent (a durable run re-runs them after a crash), unless the server is untrusted", async () => {
    expect(find("mcp__everything__echo")!.idempotent).toBe(true);
    // toggle-simulated-logging says idempotentHint: false.
    expect(find("mcp__everything__toggle-simulated-logging")!.idempotent).toBeUndefined();
    const untrusted = await connectMcpServers({ everything: { ...everythingServer(), trust: "untrusted" } }, { callTimeoutMs: 20_000, defer: "never" });
    try {
      expect(untrusted.tools.find((tool) => tool.name === "mcp__everything__echo")!.idempotent).toBeUndefined();
    } finally {
      await untrusted.close();
    }
  }, slow.timeout);

  it("calls echo and get-sum and returns their text", async () => {
    expect(await call(find("mcp__everything__echo"), { message: "hello" })).toEqual({ content: "Echo: hello" });
    expect((await call(find("mcp__everything__get-sum"), { a: 2, b: 40 })).content).toContain("42");
  }, slow.timeout);

  it("shows an image as a note with its type and size", async () => {
    const output = await call(find("mcp__everything__get-tiny-image"), {});
    expect(output.content).toMatch(/\[image: image\/png, [\d.]+ (KiB|bytes) — not shown to the model\]/);
    expect(output.isError).toBeUndefined();
  }, slow.timeout);

  it("shows resource links and embedded resources", async () => {
    const links = await call(find("mcp__everything__get-resource-links"), { count: 2 });
    expect(links.content).toContain("[resource link");
    const reference = await call(find("mcp__everything__get-resource-reference"), { resourceType: "Text", resourceId: 1 });
    expect(reference.content).toMatch(/\[resource [a-z]+:\/\//);
  }, slow.timeout);

  it("stops a long-running operation when the call is aborted, and the server keeps answering", async () => {
    const controller = new AbortController();
    const pending = call(find("mcp__everything__trigger-long-running-operation"), { duration: 30, steps: 30 }, controller.signal);
    setTimeout(() => controller.abort(), 500);
    const output = await pending;
    expect(output.isError).toBe(true);
    expect(output.errorKind).toBe("timeout");
    expect((await call(find("mcp__everything__echo"), { message: "still here" })).content).toBe("Echo: still here");
  }, slow.timeout);

  it("answers a call past its time limit with a timeout error result", async () => {
    const short = await connectMcpServers({ everything: everythingServer() }, { callTimeoutMs: 1_000 });
    try {
      const tool = short.tools.find((candidate) => candidate.name === "mcp__everything__trigger-long-running-operation");
      const output = await call(tool, { duration: 20, steps: 20 });
      expect(output).toMatchObject({ isError: true, errorKind: "timeout" });
      expect(output.content).toContain("did not answer");
    } finally {
      await short.close();
    }
  }, slow.timeout);
});

describe("connectMcpServers with @modelcontextprotocol/server-filesystem", () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), "ctxkit-mcp-fs-"));
    writeFileSync(join(directory, "notes.txt"), "the quick brown fox\n");
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("reads a file of the temp folder, refuses one outside, and ends its process on close", async () => {
    const connections = await connectMcpServers({ files: filesystemServer(directory) });
    const find = (name: string) => connections.tools.find((tool) => tool.name === name);
    try {
      expect(connections.warnings).toEqual([]);
      const read = await call(find("mcp__files__read_text_file"), { path: join(directory, "notes.txt") });
      expect(read.content).toContain("the quick brown fox");
      const listing = await call(find("mcp__files__list_directory"), { path: directory });
      expect(listing.content).toContain("notes.txt");
      const outside = await call(find("mcp__files__read_text_file"), { path: "/etc/hostname" });
      expect(outside.isError).toBe(true);
      // write_file is not read-only: it asks for confirmation.
      expect(find("mcp__files__write_file")!.requiresConfirmation).toBe(true);
    } finally {
      await connections.close();
    }
  }, slow.timeout);

  it("reads a long file of 2-, 3- and 4-byte characters whole (its answer arrives in many chunks that cut characters)", async () => {
    // About 600 KB of UTF-8 in one line of JSON: the pipe delivers it in chunks of at most 64 KB, whose
    // ends fall inside characters; a buffer that decoded each chunk alone would show U+FFFD.
    const text = `${"é日😀a".repeat(60_000)}\n`;
    writeFileSync(join(directory, "multibyte.txt"), text);
    const connections = await connectMcpServers({ files: filesystemServer(directory) }, { maxResultCharacters: 1_000_000 });
    try {
      const read = await call(connections.tools.find((tool) => tool.name === "mcp__files__read_text_file"), { path: join(directory, "multibyte.txt") });
      expect(read.isError).toBeFalsy();
      expect(read.content).not.toContain("\uFFFD");
      expect(read.content).toBe(text);
    } finally {
      await connections.close();
    }
  }, slow.timeout);

  it("marks every tool deferred when the tools pass the threshold", async () => {
    const connections = await connectMcpServers({ files: filesystemServer(directory) }, { deferThreshold: { tools: 3 } });
    try {
      expect(connections.tools.length).toBeGreaterThan(3);
      expect(connections.tools.every((tool) => tool.deferred === true)).toBe(true);
    } finally {
      await connections.close();
    }
  }, slow.timeout);
});

