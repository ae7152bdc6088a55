export { createRecallTool, type RecallArgs, type RecallToolOptions } from "./create-recall-tool.js";
export { createCompressedContentSearch, type CompressedContentSearch, type SearchHit } from "./compressed-content-search.js";
