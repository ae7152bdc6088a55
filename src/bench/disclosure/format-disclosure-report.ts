import { formatInteger, formatTextTable } from "../text-table.js";
import type { ToolSearchIndexOptions } from "../../tools/search/tool-search-index.js";
import type { DisclosureBenchReport } from "./run-disclosure-bench.js";

/** The bench's three tables as text (the CLI prints it). */
export function formatDisclosureReport(report: DisclosureBenchReport): string {
  const safety = report.cacheSafety;
  const checks = Object.entries(safety.checks)
    .map(([name, ok]) => `${name} ${ok ? "yes" : "NO"}`)
    .join(", ");
  const safetyTable = formatTextTable(
    ["step", "requests"],
    safety.steps.map((step) => [step.name, String(step.requests)]),
    { footer: ["all", String(safety.requests)] },
  );
  const tokenTable = formatTextTable(
    ["tools", "copies", "inline calls", "inline per call", "inline total", "disclosure calls", "disclosure per call", "disclosure total", "disclosure/inline"],
    report.tokens.map((row) => [
      String(row.tools),
      String(row.copies),
      String(row.inline.perCall.length),
      row.inline.perCall.map(formatInteger).join(" / "),
      formatInteger(row.inline.total),
      String(row.disclosure.perCall.length),
      row.disclosure.perCall.map(formatInteger).join(" / "),
      formatInteger(row.disclosure.total),
      `${(row.ratio * 100).toFixed(0)}%`,
    ]),
  );
  const search = report.search;
  const searchTable = formatTextTable(
    ["options", "half", "domain", "queries", "recall@5", "MRR"],
    search.rows.map((row) => [row.options, row.half, row.domain, String(row.queries), row.recallAt5.toFixed(3), row.mrr.toFixed(3)]),
    { leftColumns: [0, 1, 2] },
  );
  const mcp = report.catalog.mcp;
  return [
    `Catalog: ${report.catalog.realTools} real tools (${Object.entries(report.catalog.sources).map(([source, count]) => `${source} ${count}`).join(", ")}); MCP tools ${mcp.mode === "live" ? "listed from the servers started now" : "from the recorded tools/list"}${mcp.note ? ` (${mcp.note})` : ""}.`,
    `Skills: ${report.skills.names.join(", ")} (${report.skills.directory}).`,
    "",
    "1. Cache safety on the wire (OpenAI-compatible bodies, scripted model)",
    "",
    safetyTable,
    "",
    `Undeclared cache breaks: ${safety.undeclaredBreaks} (declared ${safety.declaredBreaks}); bodies extending the previous byte for byte: ${safety.prefixExtensions}/${Math.max(0, safety.requests - 1)}${safety.brokenAt.length ? ` (broken at request ${safety.brokenAt.join(", ")})` : ""}.`,
    `Checks: ${checks}.`,
    `MCP list_changed: server '${safety.mcpListChanged.server}' (stdio) added ${safety.mcpListChanged.added.join(", ") || "nothing"}, announced by an appended message; ${safety.mcpListChanged.calledTool} through call_tool answered: ${safety.mcpListChanged.result || "(no result)"}`,
    "",
    "2. Prompt tokens, exact Qwen3: all skills inlined + all tools in `tools` vs progressive disclosure",
    "",
    tokenTable,
    "",
    `3. Search quality over ${search.catalogTools} tools (${search.split}; ${search.configurationsTried} configurations tried on the tune half)`,
    "",
    searchTable,
    "",
    `plain: ${describeOptions(search.plain)}; defaults (shipped): ${describeOptions(search.defaults)}; tuned now on the tune half: ${describeOptions(search.tuned)}`,
  ].join("\n");
}

function describeOptions(options: ToolSearchIndexOptions): string {
  const boost = options.boost ?? {};
  return `boost name ${boost.name ?? "-"} description ${boost.description ?? "-"} parameters ${boost.parameters ?? "-"}, typo fixes ${options.typoWeight ?? "-"}, prefix ${options.prefix ?? "-"}`;
}
