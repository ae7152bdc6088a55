/**
 * Typed errors. Every error has a stable `code` a program can switch on and a message that says how
 * to fix the problem; each family class narrows `code` to its own union. Providers never throw these
 * after a stream started: they arrive as a terminal `error` event instead.
 */
export * from "./error-codes.js";
export { CtxkitError, isCtxkitError, toCtxkitError } from "./ctxkit-error.js";
export { ConfigError } from "./config-error.js";
export { ProviderError, ProviderHttpError, ContextOverflowError } from "./provider-error.js";
export { SessionError } from "./session-error.js";
export { ToolDefinitionError } from "./tool-definition-error.js";
export { ContextError } from "./context-error.js";
export { TranscriptError } from "./transcript-error.js";
export { UsageError } from "./usage-error.js";
