export { runToolSearchBench, toolSearchArms, type ToolSearchBenchOptions, type ToolSearchBenchReport, type ToolSearchBenchRow } from "./run-tool-search-bench.js";
export { formatToolSearchReport } from "./format-tool-search-report.js";
export { loadToolSearchEvaluation, mcpToolName, splitHalf, type ToolSearchEvaluation, type ToolSearchQuery } from "./tool-search-evaluation.js";
export { scoreToolSearch, scoreToolSearchOptions, type ToolSearchScores } from "./score-tool-search.js";
export { tuneToolSearch, type TuneResult } from "./tune-tool-search.js";
