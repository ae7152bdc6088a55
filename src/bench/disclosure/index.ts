export { runDisclosureBench, type DisclosureBenchOptions, type DisclosureBenchReport } from "./run-disclosure-bench.js";
export { formatDisclosureReport } from "./format-disclosure-report.js";
export { runCacheSafety, type CacheSafetyInput, type CacheSafetyResult, type CacheSafetyStep, growingMcpServer } from "./run-cache-safety.js";
export { runTokenComparison, type TokenArm, type TokenComparisonRow } from "./run-token-comparison.js";
export { loadSearchQueries, runSearchQuality, scoreSearch, searchOptionGrid, type SearchQuery, type SearchQualityResult, type SearchScores } from "./run-search-quality.js";
export { catalogOfSize, loadDisclosureCatalogs, readTauToolDefinitions, type CatalogEntry, type DisclosureCatalogs } from "./disclosure-catalog.js";
export { listMcpServerTools, benchMcpServers, type McpServerSpec, type McpServerTools } from "./list-mcp-server-tools.js";
