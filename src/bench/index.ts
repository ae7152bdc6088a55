// The benchmarks as functions that return data; the CLI prints them. Not a package entry: they ship
// only for `ctxkit bench`.
export * from "./kv-cache/index.js";
export * from "./replay/index.js";
