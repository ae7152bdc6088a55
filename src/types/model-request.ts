import type { Message, UserMessage } from "./message.js";
import type { ToolDefinition } from "./tool.js";

/**
 * The system prompt in two parts with a cache boundary between them: a static part identical for
 * every session of the app, and a session part fixed when the session starts (per-user facts).
 * Runtime conditions (time, counters, balances) never go here — they go to the tail.
 */
export interface SystemPrompt {
  staticText: string;
  sessionText?: string;
}

/** Where a provider with explicit cache control (Anthropic) should put a cache breakpoint. */
export type CacheBreakpoint =
  | { kind: "system_static" }
  | { kind: "prefix" }
  | { kind: "message"; index: number };

export interface GenerationSettings {
  maxOutputTokens?: number;
  temperature?: number;
  /** Provider-specific extras merged into the wire body (e.g. `{ "top_k": 20 }`). Keep them constant. */
  extraBody?: Record<string, unknown>;
  /**
   * Reasoning effort for this call (the Responses API's `reasoning.effort`, Anthropic's
   * `output_config.effort`; each takes its own values, `Provider.reasoningEfforts`), over the provider's
   * own setting. A change between calls starts a new prompt cache, so the session records it per call
   * and a miss after a change is named `effort_changed`. Providers without an effort setting ignore it.
   */
  reasoningEffort?: string;
}

/**
 * Everything one model call sends, in the layout of the prefix invariant:
 * stable prefix (system + tools) + append-only trajectory + at most one tail message.
 */
export interface ModelRequest {
  system: SystemPrompt;
  /** Sorted once and frozen for the session; never reordered between calls. */
  tools: ToolDefinition[];
  /**
   * Deferred tools for a provider that searches them on its side (`Provider.nativeToolSearch`): sent
   * after `tools` in the provider's deferred form. Sorted and frozen like `tools`. Others ignore it.
   */
  deferredTools?: readonly ToolDefinition[];
  /** The trajectory: every message here was or will be sent unchanged in later calls. */
  messages: Message[];
  /** The only part that may change between calls (the status bar). Never cached. */
  tail?: UserMessage;
  cacheBreakpoints: CacheBreakpoint[];
  settings: GenerationSettings;
  /**
   * Compact on the server in this call (`agent.run(input, { compact })`): Anthropic sends its
   * `compact_20260112` edit with the API's lowest trigger, so a prompt past it is summarised before
   * the answer. Only set for a provider with `compactsOnRequest`.
   */
  serverCompaction?: { instructions?: string };
}
