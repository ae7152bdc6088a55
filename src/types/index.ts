export * from "./message.js";
export * from "./tool.js";
export * from "./usage.js";
export * from "./errors.js";
export * from "./event.js";
export * from "./model-request.js";
export * from "./cache-break.js";
