// The `ctxkit/testing` entry: providers and servers for testing agents without a model or network.
export * from "./providers/scripted/index.js";
export * from "./testing/loopback-server.js";
export * from "./providers/replay/index.js";
export * from "./testing/openai-model-server.js";
