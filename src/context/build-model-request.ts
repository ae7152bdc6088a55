import type { Message, ToolDefinition, UserMessage } from "../types/index.js";
import type { CacheBreakpoint, GenerationSettings, ModelRequest } from "../types/model-request.js";
import type { StablePrefix } from "./stable-prefix.js";

export interface BuildModelRequestInput {
  prefix: StablePrefix;
  trajectory: readonly Message[];
  tail?: UserMessage;
  settings?: GenerationSettings;
  /** Deferred tools a native-search provider sends itself (see `ModelRequest.deferredTools`). */
  deferredTools?: readonly ToolDefinition[];
}

/**
 * Lays out one model call: stable prefix + the whole append-only trajectory + at most one tail.
 * Pure: the same input always gives the same request, so the same bytes on the wire.
 *
 * Cache breakpoints (used by providers with explicit cache control): after the static system part
 * when a session part follows (so every session of the app shares it), at the end of the prefix,
 * and on the last trajectory message — never on the tail, which changes every call.
 */
export function buildModelRequest(input: BuildModelRequestInput): ModelRequest {
  const cacheBreakpoints: CacheBreakpoint[] = [];
  if (input.prefix.system.sessionText) cacheBreakpoints.push({ kind: "system_static" });
  cacheBreakpoints.push({ kind: "prefix" });
  if (input.trajectory.length > 0) cacheBreakpoints.push({ kind: "message", index: input.trajectory.length - 1 });
  return {
    system: input.prefix.system,
    tools: [...input.prefix.tools],
    ...(input.deferredTools ? { deferredTools: input.deferredTools } : {}),
    messages: [...input.trajectory],
    ...(input.tail ? { tail: input.tail } : {}),
    cacheBreakpoints,
    settings: input.settings ?? {},
  };
}
