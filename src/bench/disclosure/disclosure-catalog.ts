import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CtxkitError, type Tool, type ToolDefinition } from "../../types/index.js";
import recorded from "./fixtures/mcp-tools.json" with { type: "json" };
import { listMcpServerTools, type McpServerTools } from "./list-mcp-server-tools.js";

/** Where a catalog entry comes from: a τ-bench domain's tools.json or a real MCP server's tools/list. */
export interface CatalogEntry {
  definition: ToolDefinition;
  source: string;
}

export interface DisclosureCatalogs {
  /** Every distinct real definition: τ-bench airline, retail, then the MCP servers' (first name wins). */
  entries: CatalogEntry[];
  /** How the MCP tools were obtained: servers started now, or the recorded copy. */
  mcp: { mode: "live" | "recorded"; servers: Array<{ server: string; packageName: string; version: string; tools: number }>; note?: string };
}

/** Reads τ-bench's `tools.json` (OpenAI tool schemas, exactly as the benchmark sends them). */
export async function readTauToolDefinitions(domainDirectory: string): Promise<ToolDefinition[]> {
  const file = join(domainDirectory, "tools.json");
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new CtxkitError("option_invalid", `Cannot read ${file}: ${(error as Error).message}. Give tauDirectory, the corpus's tau-bench/ folder (CLI: --corpus <dir>, the folder holding tau-bench/).`, { cause: error });
  }
  if (!Array.isArray(value)) throw new CtxkitError("option_invalid", `${file} must be a list of OpenAI tool schemas.`);
  return (value as Array<{ function?: { name?: unknown; description?: unknown; parameters?: unknown } }>).flatMap((entry) => {
    const schema = entry.function;
    if (typeof schema?.name !== "string" || typeof schema.parameters !== "object" || schema.parameters === null) return [];
    return [{ name: schema.name, description: typeof schema.description === "string" ? schema.description : "", parameters: schema.parameters as ToolDefinition["parameters"] }];
  });
}

/**
 * The bench's real tool definitions. MCP tools come from the servers started over stdio (`live`),
 * or from the copy recorded once from the same package versions (`recorded`, and the fallback when
 * the servers cannot start — the note says why).
 */
export async function loadDisclosureCatalogs(tauDirectory: string, mcpMode: "live" | "recorded"): Promise<DisclosureCatalogs> {
  const airline = await readTauToolDefinitions(join(tauDirectory, "airline"));
  const retail = await readTauToolDefinitions(join(tauDirectory, "retail"));
  let servers: McpServerTools[];
  let mode = mcpMode;
  let note: string | undefined;
  if (mcpMode === "live") {
    try {
      servers = await listMcpServerTools();
    } catch (error) {
      servers = recorded.servers as McpServerTools[];
      mode = "recorded";
      note = `MCP servers could not be started (${(error as Error).message}); used the recorded tools/list.`;
    }
  } else {
    servers = recorded.servers as McpServerTools[];
  }
  const entries: CatalogEntry[] = [];
  const seen = new Set<string>();
  const add = (definitions: readonly ToolDefinition[], source: string) => {
    for (const definition of definitions) {
      if (seen.has(definition.name)) continue;
      seen.add(definition.name);
      entries.push({ definition, source });
    }
  };
  add(airline, "tau-airline");
  add(retail, "tau-retail");
  for (const server of servers) add(server.tools, `mcp-${server.server}`);
  return {
    entries,
    mcp: { mode, servers: servers.map((server) => ({ server: server.server, packageName: server.packageName, version: server.version, tools: server.tools.length })), ...(note ? { note } : {}) },
  };
}

/**
 * A catalog of `size` tools that always holds `required` (the task's tools), filled with the real
 * definitions in source order, round-robin across sources so small catalogs mix domains. Past the
 * real definitions, copies are added under numbered names (`read_file_2`), as when the same servers
 * are connected once per project — `copies` says how many.
 */
export function catalogOfSize(entries: readonly CatalogEntry[], size: number, required: readonly string[]): { tools: ToolDefinition[]; copies: number } {
  const bySource = new Map<string, CatalogEntry[]>();
  for (const entry of entries) bySource.set(entry.source, [...(bySource.get(entry.source) ?? []), entry]);
  const ordered: ToolDefinition[] = entries.filter((entry) => required.includes(entry.definition.name)).map((entry) => entry.definition);
  const queues = [...bySource.values()].map((list) => list.filter((entry) => !required.includes(entry.definition.name)));
  while (queues.some((queue) => queue.length > 0)) for (const queue of queues) if (queue.length > 0) ordered.push(queue.shift()!.definition);
  const tools = ordered.slice(0, size);
  let copies = 0;
  for (let round = 2; tools.length < size; round += 1) {
    for (const definition of ordered) {
      if (tools.length >= size) break;
      tools.push({ ...definition, name: `${definition.name}_${round}` });
      copies += 1;
    }
  }
  return { tools, copies };
}

/** Tools that answer with a fixed JSON text (the bench measures the context, not the tools). */
export function toBenchTools(definitions: readonly ToolDefinition[], deferred: boolean): Tool[] {
  return definitions.map((definition) => ({
    ...definition,
    ...(deferred ? { deferred: true } : {}),
    parallelSafe: true,
    async execute(args: Record<string, unknown>) {
      return JSON.stringify({ tool: definition.name, arguments: args, status: "ok" });
    },
  }));
}
