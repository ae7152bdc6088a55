export * from "./imported-transcript.js";
export * from "./importers/index.js";
export * from "./analysis/index.js";
export * from "./findings/index.js";
export { inspectFiles, type InspectFilesOptions, type InspectReport } from "./inspect-files.js";
