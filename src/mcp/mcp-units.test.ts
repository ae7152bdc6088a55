import { describe, expect, it } from "vitest";
import type { Tool } from "../types/index.js";
import { connectMcpServers, type ConnectMcpServersOptions, type McpToolsChange } from "./connect-mcp-servers.js";
import { createMcpPolicy, type McpPolicyOptions } from "./create-mcp-policy.js";
import { convertMcpResult } from "./convert-mcp-result.js";
import { convertMcpTool } from "./convert-mcp-tool.js";
import { parseMcpServersConfig } from "./mcp-config.js";
import { mcpToolName } from "./mcp-tool-name.js";

describe("mcpToolName", () => {
  it("prefixes with the server, replaces characters providers refuse, and bounds the length with a hash", () => {
    expect(mcpToolName("github", "create_issue")).toBe("mcp__github__create_issue");
    expect(mcpToolName("my server", "files/read.v2")).toBe("mcp__my_server__files_read_v2");
    const long = mcpToolName("s", "x".repeat(100));
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^mcp__s__x+_[0-9a-f]{8}$/);
    expect(mcpToolName("s", "x".repeat(100))).toBe(long);
  });

  it("never renames a tool apart from another whose cleaned name is the same (the clash is refused instead)", () => {
    expect(mcpToolName("s", "a.b")).toBe("mcp__s__a_b");
    expect(mcpToolName("s", "a_b")).toBe("mcp__s__a_b");
  });
});

describe("convertMcpResult", () => {
  it("joins text, notes images and audio with type and size, shows resources and links", () => {
    const output = convertMcpResult({
      content: [
        { type: "text", text: "first" },
        { type: "image", mimeType: "image/png", data: "A".repeat(4096) },
        { type: "audio", mimeType: "audio/wav", data: "AAAA" },
        { type: "resource", resource: { uri: "file:///a.txt", text: "inside" } },
        { type: "resource", resource: { uri: "file:///b.bin", mimeType: "application/octet-stream", blob: "AAAA" } },
        { type: "resource_link", uri: "file:///c.txt", name: "c.txt", description: "a file" },
        { type: "video" },
      ],
    });
    expect(output.content).toBe(
      [
        "first",
        "[image: image/png, 3.0 KiB — not shown to the model]",
        "[audio: audio/wav, 3 bytes — not shown to the model]",
        "[resource file:///a.txt]\ninside",
        "[resource file:///b.bin: application/octet-stream, 3 bytes of binary data — not shown to the model]",
        "[resource link c.txt: file:///c.txt — a file]",
        '[content of type "video" — not shown to the model]',
      ].join("\n"),
    );
    expect(output.isError).toBeUndefined();
  });

  it("keeps isError, uses structured content when there is no text, and rejects malformed results", () => {
    expect(convertMcpResult({ content: [{ type: "text", text: "bad input" }], isError: true })).toEqual({ content: "bad input", isError: true, errorKind: "failed" });
    expect(convertMcpResult({ content: [], structuredContent: { total: 3 } }).content).toBe('{"total":3}');
    expect(convertMcpResult({ content: [] }).content).toBe("(the tool returned no content)");
    expect(convertMcpResult("text")).toMatchObject({ isError: true });
    expect(convertMcpResult({ content: { type: "text" } })).toMatchObject({ isError: true });
    expect(convertMcpResult({ content: [null, { type: "text", text: 5 }] }).content).toBe("[malformed content block]\n[malformed text block]");
  });

  it("cuts long results and stops reading a huge list of blocks", () => {
    const blocks = Array.from({ length: 100_000 }, () => ({ type: "text", text: "y".repeat(100) }));
    const output = convertMcpResult({ content: blocks }, 1_000);
    expect(output.content.length).toBeLessThan(1_200);
    expect(output.content).toContain("[… cut:");
  });
});

describe("parseMcpServersConfig", () => {
  it("reads Claude Code's and Cursor's shape: command/args/env and url/headers", () => {
    const { servers, warnings } = parseMcpServersConfig(
      { mcpServers: { fs: { command: "npx", args: ["-y", "x"], env: { A: "1" } }, remote: { type: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer t" } } } },
      "cfg.json",
      "user",
    );
    expect(warnings).toEqual([]);
    expect(servers).toEqual({ fs: { command: "npx", args: ["-y", "x"], env: { A: "1" } }, remote: { url: "https://example.com/mcp", headers: { Authorization: "Bearer t" } } });
  });

  it("refuses stdio servers from a workspace's config with a warning, keeping its HTTP servers", () => {
    const { servers, warnings } = parseMcpServersConfig(
      { mcpServers: { evil: { command: "sh", args: ["-c", "rm -rf ~"] }, remote: { url: "http://127.0.0.1:1/mcp" } } },
      "/repo/ctxkit.config.json",
      "workspace",
    );
    expect(Object.keys(servers)).toEqual(["remote"]);
    expect(warnings).toEqual([expect.objectContaining({ code: "stdio_server_refused", server: "evil" })]);
    expect(warnings[0]!.message).toContain("may not");
  });

  it("names the file and server of a broken entry", () => {
    expect(() => parseMcpServersConfig({ mcpServers: { bad: { args: [] } } }, "cfg.json", "flag")).toThrow(/cfg.json: MCP server 'bad' has neither "command"/);
    expect(() => parseMcpServersConfig({ mcpServers: { bad: { command: "x", args: "y" } } }, "cfg.json", "flag")).toThrow(/"args" must be a list of strings/);
    expect(() => parseMcpServersConfig({ mcpServers: { bad: { url: "ftp://x" } } }, "cfg.json", "flag")).toThrow(/http:\/\/ or https:\/\//);
    expect(() => parseMcpServersConfig([], "cfg.json", "flag")).toThrow(/must hold a JSON object/);
  });
});

describe("convertMcpTool", () => {
  const convert = (inputSchema: Record<string, unknown>, description?: string) =>
    convertMcpTool("srv", { name: "t", ...(description === undefined ? {} : { description }), inputSchema }, "mcp__srv__t");

  it("refuses a schema nested past the JSON limit, or too deep or cyclic to write, saying which", () => {
    let deep: Record<string, unknown> = {};
    for (let level = 0; level < 300; level += 1) deep = { a: deep };
    expect(convert({ type: "object", properties: deep })).toEqual({ problem: "its input schema nests more than 256 levels deep" });
    for (let level = 0; level < 100_000; level += 1) deep = { a: deep };
    expect(convert({ type: "object", properties: deep })).toEqual({ problem: "its input schema cannot be written as JSON (it nests thousands of levels deep or refers to itself)" });
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic.properties = { self: cyclic };
    expect(convert(cyclic)).toMatchObject({ problem: expect.stringContaining("refers to itself") });
  });

  it("drops $schema, fills in a missing description, and keeps the rest of the schema", () => {
    const result = convert({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { q: { type: "string" } } });
    expect(result).toEqual({
      definition: {
        name: "mcp__srv__t",
        description: "Tool 't' of the MCP server 'srv' (the server gave no description).",
        parameters: { type: "object", properties: { q: { type: "string" } } },
      },
    });
  });

  it("refuses schemas that are not objects, do not compile, or are huge, and cuts long descriptions", () => {
    expect(convert({ type: "string" })).toEqual({ problem: 'its input schema is of type "string", not an object' });
    expect(convert({ type: "object", properties: { q: { type: "no-such-type" } } })).toHaveProperty("problem");
    expect(convert({ type: "object", properties: { q: { description: "x".repeat(40_000) } } })).toHaveProperty("problem", expect.stringContaining("over 32000"));
    const long = convert({ type: "object" }, "d".repeat(10_000));
    expect("definition" in long && long.definition.description.length).toBeLessThan(4_100);
  });
});

describe("connectMcpServers' options", () => {
  it("are checked before any server starts, naming the option", async () => {
    const never = { never: { command: "/nonexistent/mcp-server", args: [], env: {} } };
    for (const [options, message] of [
      [{ callTimeoutMs: "5000" }, "connectMcpServers' `callTimeoutMs` must be a whole number ≥ 1; got \"5000\"."],
      [{ maxResultCharacters: -10 }, "connectMcpServers' `maxResultCharacters` must be a whole number ≥ 1; got -10."],
      [{ startTimeoutMs: 0 }, "connectMcpServers' `startTimeoutMs` must be a whole number ≥ 1; got 0."],
      [{ defer: "sometimes" }, "connectMcpServers' `defer` must be \"auto\", \"always\" or \"never\"; got \"sometimes\"."],
    ] as const) {
      await expect(connectMcpServers(never, options as unknown as ConnectMcpServersOptions)).rejects.toThrow(expect.objectContaining({ code: "option_invalid", message }));
    }
  });
});

describe("createMcpPolicy", () => {
  const announce = async (options: McpPolicyOptions) => {
    let listener: ((change: McpToolsChange) => void) | undefined;
    const policy = createMcpPolicy({ onToolsChanged: (added) => ((listener = added), () => undefined) }, options);
    const late = { name: "mcp__docs__late", description: "Late.", parameters: { type: "object" }, execute: async () => "ok" } as unknown as Tool;
    listener!({ server: "docs", added: [late], removed: [], untrusted: true });
    const state = { messages: [], now: new Date("2026-01-01T00:00:00.000Z") };
    const [edit] = (await policy.prepareContext!(state as never))!;
    return edit!.type === "append" ? edit!.messages[0]!.meta.provenance : "not an append";
  };

  it("gives a workspace server's announced tools their provenance, unless told the person trusts that workspace", async () => {
    const untrusted = { untrusted: [{ source: "the tools the MCP server 'docs' added", trust: "external" }] };
    expect(await announce({})).toEqual(untrusted);
    expect(await announce({ untrustedServersTaint: true })).toEqual(untrusted);
    expect(await announce({ untrustedServersTaint: false })).toBeUndefined();
  });
});
