import { ConfigError } from "../types/index.js";
import type { AgentOptions } from "./agent-options.js";

/**
 * Refuses options the types forbid but plain JavaScript (or a cast, or settings read from a file)
 * can still pass, before anything runs: without it a missing provider failed as a bare TypeError and
 * a missing system prompt silently sent an empty one.
 */
export function checkAgentOptions(options: AgentOptions): void {
  if (options === null || typeof options !== "object") throw invalid("createAgent needs an options object: { provider, system }.");
  if (options.provider === null || typeof options.provider !== "object") {
    throw invalid("createAgent needs `provider`: a Provider such as createOpenAICompatible({ model }) from ctxkit/providers/openai-compatible, or createScriptedProvider from ctxkit/testing.");
  }
  if (!isSystemPrompt(options.system)) {
    throw invalid(`createAgent needs \`system\`: a string, or { staticText: string, sessionText?: string }; got ${describe(options.system)}.`);
  }
  const { maxIterations, toolTimeoutMs } = options.runtime ?? {};
  if (maxIterations !== undefined && !(Number.isInteger(maxIterations) && maxIterations > 0)) {
    throw invalid(`runtime.maxIterations must be a whole number of model calls ≥ 1 (default 50); got ${describe(maxIterations)}.`);
  }
  if (toolTimeoutMs !== undefined && !(typeof toolTimeoutMs === "number" && toolTimeoutMs > 0)) {
    throw invalid(`runtime.toolTimeoutMs must be a number of milliseconds > 0 (default 120000); got ${describe(toolTimeoutMs)}.`);
  }
}

function isSystemPrompt(value: unknown): boolean {
  if (typeof value === "string") return true;
  if (value === null || typeof value !== "object") return false;
  const { staticText, sessionText } = value as { staticText?: unknown; sessionText?: unknown };
  return typeof staticText === "string" && (sessionText === undefined || typeof sessionText === "string");
}

function describe(value: unknown): string {
  if (typeof value === "number") return String(value);
  return value === null ? "null" : typeof value;
}

function invalid(message: string): ConfigError {
  return new ConfigError("option_invalid", message);
}
