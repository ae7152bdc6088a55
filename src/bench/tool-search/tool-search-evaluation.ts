import { existsSync } from "node:fs";
import { join } from "node:path";
import { readTauToolDefinitions } from "../disclosure/disclosure-catalog.js";
import type { ToolDefinition } from "../../types/index.js";
import catalogs from "../disclosure/fixtures/tool-search-catalogs.json" with { type: "json" };
import written from "../disclosure/fixtures/tool-search-queries.json" with { type: "json" };
import writtenRoundTwo from "../disclosure/fixtures/tool-search-queries-round-two.json" with { type: "json" };
import writtenRoundThree from "../disclosure/fixtures/tool-search-queries-round-three.json" with { type: "json" };
import thirdParty from "../disclosure/fixtures/tool-search-third-party-queries.json" with { type: "json" };

/** One query of the evaluation: what a user or a model typed, and the tool names that answer it. */
export interface ToolSearchQuery {
  query: string;
  /** The right tool's name as the index holds it (`mcp__github__create_issue`, `book_reservation`). */
  tool: string;
  /** Tools as right as `tool` (`read_file` for "cat a text file" next to `read_text_file`). */
  accept: string[];
  half: "tune" | "measure";
  /** Which set the query was written in: the first (the table of issue 29's first stop), round two or round three (each written before any result on it). */
  set: "first" | "round two" | "round three";
}

export interface ToolSearchEvaluation {
  tools: ToolDefinition[];
  /** Where each tool comes from: `@playwright/mcp@0.0.83`, `tau-bench airline`. */
  sources: Array<{ source: string; tools: number }>;
  queries: ToolSearchQuery[];
  /** Queries written by others for tools of these catalogs (never tuned on; scored whole). */
  thirdPartyQueries: ToolSearchQuery[];
  origin: { catalogs: string; queries: string; roundTwoQueries: string; roundThreeQueries: string; thirdPartyQueries: string };
}

/** ctxkit's own name for an MCP server's tool, as `connectMcpServers` registers it. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/**
 * The half a query belongs to, decided by its right tool's name (FNV-1a, parity): every query of a
 * tool falls in the same half, so what is tuned never sees a tool that is measured.
 */
export function splitHalf(toolId: string): "tune" | "measure" {
  let hash = 0x811c9dc5;
  for (const char of toolId) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash % 2 === 0 ? "tune" : "measure";
}

/**
 * The real catalogs (six MCP servers' recorded tools/list, plus τ-bench's airline and retail
 * tools.json when the corpus is there) in one index-ready list, and the written queries.
 */
export async function loadToolSearchEvaluation(tauDirectory: string | undefined): Promise<ToolSearchEvaluation> {
  const tools: ToolDefinition[] = [];
  const seen = new Set<string>();
  const sources: ToolSearchEvaluation["sources"] = [];
  const add = (definitions: readonly ToolDefinition[], source: string) => {
    const fresh = definitions.filter((definition) => !seen.has(definition.name));
    for (const definition of fresh) seen.add(definition.name);
    tools.push(...fresh);
    sources.push({ source, tools: fresh.length });
  };
  for (const server of catalogs.servers) {
    add(
      server.tools.map((tool) => ({ name: mcpToolName(server.server, tool.name), description: tool.description, parameters: tool.parameters as ToolDefinition["parameters"] })),
      `${server.packageName}@${server.version}`,
    );
  }
  const hasTau = tauDirectory !== undefined && existsSync(join(tauDirectory, "airline", "tools.json"));
  if (hasTau) {
    add(await readTauToolDefinitions(join(tauDirectory, "airline")), "tau-bench airline");
    add(await readTauToolDefinitions(join(tauDirectory, "retail")), "tau-bench retail");
  }
  const resolveId = (id: string): string => {
    const [server, name] = splitId(id);
    return server === "tau" ? name : mcpToolName(server, name);
  };
  const sets: Array<[ToolSearchQuery["set"], Array<{ query: string; tool: string; accept?: string[] }>]> = [
    ["first", written.queries],
    ["round two", writtenRoundTwo.queries],
    ["round three", writtenRoundThree.queries],
  ];
  const queries = sets.flatMap(([set, entries]) =>
    entries
      .filter((entry) => hasTau || !entry.tool.startsWith("tau/"))
      .map((entry): ToolSearchQuery => ({
        query: entry.query,
        tool: resolveId(entry.tool),
        accept: (entry.accept ?? []).map(resolveId).filter((name) => seen.has(name)),
        half: splitHalf(entry.tool),
        set,
      })),
  );
  const thirdPartyQueries = thirdParty.queries.map((entry): ToolSearchQuery => ({ query: entry.query, tool: resolveId(entry.tool), accept: [], half: "measure", set: "first" }));
  return {
    tools,
    sources,
    queries,
    thirdPartyQueries,
    origin: { catalogs: catalogs.origin, queries: written.origin, roundTwoQueries: writtenRoundTwo.origin, roundThreeQueries: writtenRoundThree.origin, thirdPartyQueries: thirdParty.origin },
  };
}

function splitId(id: string): [string, string] {
  const slash = id.indexOf("/");
  return [id.slice(0, slash), id.slice(slash + 1)];
}
