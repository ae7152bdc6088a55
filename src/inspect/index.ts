export * from "./imported-transcript.js";
export * from "./importers/index.js";
