// Records the tools/list of real MCP servers installed from npm into a folder outside the repository
// (`npm i --prefix /tmp/catalogs <packages> @modelcontextprotocol/sdk`), for the tool-search evaluation
// fixture src/bench/disclosure/fixtures/tool-search-catalogs.json.
// Usage: node scripts/record-tool-catalogs.mjs /tmp/catalogs > catalogs.json
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const prefix = process.argv[2] ?? "/tmp/catalogs";
const require = createRequire(join(prefix, "node_modules", "x.js"));
const { Client } = await import(require.resolve("@modelcontextprotocol/sdk/client/index.js"));
const { StdioClientTransport } = await import(require.resolve("@modelcontextprotocol/sdk/client/stdio.js"));

const servers = [
  { server: "github", packageName: "@modelcontextprotocol/server-github", args: [] },
  { server: "notion", packageName: "@notionhq/notion-mcp-server", args: [] },
  { server: "filesystem", packageName: "@modelcontextprotocol/server-filesystem", args: ["{dir}"] },
  { server: "everything", packageName: "@modelcontextprotocol/server-everything", args: ["stdio"] },
  { server: "playwright", packageName: "@playwright/mcp", args: ["--headless"] },
  { server: "memory", packageName: "@modelcontextprotocol/server-memory", args: [] },
];

const results = [];
for (const spec of servers) {
  const manifestPath = require.resolve(`${spec.packageName}/package.json`);
  const manifest = require(manifestPath);
  const bin = typeof manifest.bin === "string" ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  const directory = await mkdtemp(join(tmpdir(), "ctxkit-catalog-"));
  const client = new Client({ name: "ctxkit-catalog-recorder", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(dirname(manifestPath), bin), ...spec.args.map((arg) => arg.replace("{dir}", directory))],
    env: { PATH: process.env.PATH ?? "", HOME: directory, MEMORY_FILE_PATH: join(directory, "memory.json") },
    stderr: "ignore",
  });
  try {
    await client.connect(transport);
    const listed = await client.listTools();
    const tools = listed.tools.map((tool) => ({ name: tool.name, description: tool.description ?? "", parameters: tool.inputSchema }));
    results.push({ server: spec.server, packageName: spec.packageName, version: manifest.version, tools });
    process.stderr.write(`${spec.packageName}@${manifest.version}: ${tools.length} tools\n`);
  } finally {
    await client.close().catch(() => undefined);
    await rm(directory, { recursive: true, force: true });
  }
}
const { readFileSync } = await import("node:fs");
const sdkVersion = JSON.parse(readFileSync(join(prefix, "node_modules", "@modelcontextprotocol", "sdk", "package.json"), "utf8")).version;
process.stdout.write(
  JSON.stringify(
    {
      origin: `tools/list of each server started over stdio from npm (${results.map((entry) => `${entry.packageName}@${entry.version}`).join(", ")}), recorded ${new Date().toISOString().slice(0, 10)} by scripts/record-tool-catalogs.mjs with @modelcontextprotocol/sdk@${sdkVersion}; no credentials given (tools/list needs none)`,
      servers: results,
    },
    null,
    1,
  ) + "\n",
);
