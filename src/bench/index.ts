// `ctxkit/bench`: the benchmarks as library functions; they return data, the CLI prints it.
export * from "./kv-cache/index.js";
export * from "./replay/index.js";
