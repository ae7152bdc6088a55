import { mkdtemp, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { approveWorkspaceMcpServers, bindAllowEntries } from "./approve-workspace-mcp-servers.js";
import { resolveMcpServers, type McpApproval } from "./resolve-mcp-servers.js";

const docs = { url: "http://127.0.0.1:9/mcp", headers: { "X-Repo-Token": "t" } };

async function setup() {
  const directory = await mkdtemp(join(tmpdir(), "ctxkit-mcp-approve-"));
  const userConfigPath = join(directory, "config", "ctxkit", "config.json");
  const resolveWith = (approvals: readonly McpApproval[], definition: unknown = docs) =>
    resolveMcpServers({ workspace: { path: join(directory, "ctxkit.config.json"), value: { docs: definition }, directory, approvals }, files: [], cwd: directory });
  return { directory, userConfigPath, resolveWith };
}

function answering(...answers: string[]) {
  const output = new PassThrough();
  let shown = "";
  output.on("data", (chunk: Buffer) => (shown += chunk.toString()));
  return { output, shown: () => shown, readLine: async () => answers.shift() };
}

describe("approving a workspace's MCP servers at a terminal", () => {
  it("asks, shows the definition, records a yes with the whole definition in the user's config (0600), and does not ask again", async () => {
    const { directory, userConfigPath, resolveWith } = await setup();
    const first = resolveWith([]);
    expect(first.servers).toEqual({});
    const terminal = answering("maybe", "y");
    const approved = await approveWorkspaceMcpServers(first, { interactive: true, readLine: terminal.readLine, output: terminal.output, userConfigPath, clock: () => new Date(0) });
    expect(approved.notes).toEqual([]);
    expect(approved.mcp.servers).toEqual({ docs: { ...docs, trust: "untrusted" } });
    expect(terminal.shown()).toContain("declares the MCP server 'docs'");
    expect(terminal.shown()).toContain("header: X-Repo-Token: t");
    const saved = JSON.parse(await readFile(userConfigPath, "utf8")) as { mcpApprovals: McpApproval[] };
    expect(saved.mcpApprovals).toEqual([{ workspace: directory, server: "docs", definition: docs, approvedAt: "1970-01-01T00:00:00.000Z" }]);
    expect((await stat(userConfigPath)).mode & 0o777).toBe(0o600);
    // The next run finds the approval: the server is connected without a question.
    expect(resolveWith(saved.mcpApprovals).servers).toEqual({ docs: { ...docs, trust: "untrusted" } });
    // A changed header is another server.
    expect(resolveWith(saved.mcpApprovals, { ...docs, headers: { "X-Repo-Token": "other" } }).pending).toHaveProperty("docs");
  });

  it("leaves the server out on no, and without a terminal never asks", async () => {
    const { userConfigPath, resolveWith } = await setup();
    const terminal = answering("n");
    const declined = await approveWorkspaceMcpServers(resolveWith([]), { interactive: true, readLine: terminal.readLine, output: terminal.output, userConfigPath });
    expect(declined.mcp.servers).toEqual({});
    expect(declined.notes[0]).toContain("was not connected");
    const quiet = answering("y");
    const piped = await approveWorkspaceMcpServers(resolveWith([]), { interactive: false, readLine: quiet.readLine, output: quiet.output, userConfigPath });
    expect(piped.mcp.servers).toEqual({});
    expect(quiet.shown()).toBe("");
    await expect(readFile(userConfigPath)).rejects.toThrow();
  });
});

describe("bindAllowEntries", () => {
  it("keeps plain entries for the user's servers and built-in tools, and binds a workspace server's tools to its definition", () => {
    const servers = { mine: { url: "http://127.0.0.1:1/mcp", headers: {} }, docs: { ...docs, trust: "untrusted" as const } };
    const { allow, notes } = bindAllowEntries(["bash", "mcp__mine__x", "mcp__docs__search", "mcp__docs__other@0000000000000000"], servers);
    expect(allow).toEqual(["bash", "mcp__mine__x", "mcp__docs__other@0000000000000000"]);
    expect(notes).toHaveLength(1);
  });
});
