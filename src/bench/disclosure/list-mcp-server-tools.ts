import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CtxkitError, type ToolDefinition } from "../../types/index.js";

/** A real MCP server from npm the bench lists tools of: its package and the arguments its binary takes. */
export interface McpServerSpec {
  name: string;
  packageName: string;
  /** Arguments after the server's script (a temp directory is passed as `{dir}`). */
  args: readonly string[];
}

export const benchMcpServers: readonly McpServerSpec[] = [
  { name: "everything", packageName: "@modelcontextprotocol/server-everything", args: ["stdio"] },
  { name: "filesystem", packageName: "@modelcontextprotocol/server-filesystem", args: ["{dir}"] },
];

export interface McpServerTools {
  server: string;
  packageName: string;
  version: string;
  tools: ToolDefinition[];
}

/** Most time one server may take to start and answer `tools/list`. */
const listTimeoutMs = 30_000;

/**
 * Starts each server over stdio with the MCP SDK's client, asks `tools/list` once and stops it —
 * only to have real tool definitions (what a model would be shown). The SDK and the servers are
 * development dependencies: when they are missing this throws, and the bench uses its recorded copy.
 */
export async function listMcpServerTools(servers: readonly McpServerSpec[] = benchMcpServers): Promise<McpServerTools[]> {
  const [{ Client }, { StdioClientTransport }] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
  ]).catch((error: unknown) => {
    throw new CtxkitError("option_invalid", `The MCP SDK is not installed (${(error as Error).message}); install the development dependencies or use the recorded tool lists (mcp: "recorded"; CLI: --mcp recorded).`, { cause: error });
  });
  const require = createRequire(import.meta.url);
  const results: McpServerTools[] = [];
  for (const spec of servers) {
    const manifestPath = require.resolve(`${spec.packageName}/package.json`);
    const manifest = require(manifestPath) as { version: string; bin?: Record<string, string> | string };
    const bin = typeof manifest.bin === "string" ? manifest.bin : Object.values(manifest.bin ?? {})[0];
    if (!bin) throw new CtxkitError("option_invalid", `${spec.packageName} has no binary to start.`);
    const directory = await mkdtemp(join(tmpdir(), "ctxkit-mcp-"));
    const client = new Client({ name: "ctxkit-bench", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(dirname(manifestPath), bin), ...spec.args.map((arg) => arg.replace("{dir}", directory))],
      stderr: "ignore",
    });
    try {
      await withTimeout(client.connect(transport), `${spec.packageName} did not start`);
      const listed = await withTimeout(client.listTools(), `${spec.packageName} did not answer tools/list`);
      const tools = listed.tools
        .map((tool) => ({ name: tool.name, description: tool.description ?? "", parameters: tool.inputSchema as ToolDefinition["parameters"] }))
        .sort((left, right) => (left.name < right.name ? -1 : 1));
      results.push({ server: spec.name, packageName: spec.packageName, version: manifest.version, tools });
    } finally {
      await client.close().catch(() => undefined);
      await rm(directory, { recursive: true, force: true });
    }
  }
  return results;
}

async function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CtxkitError("option_invalid", `${what} within ${listTimeoutMs / 1000} s.`)), listTimeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
