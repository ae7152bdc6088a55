/**
 * OpenAI's `reasoning.effort` values (Responses API), in one place: the provider checks its settings
 * and each request with them, and the config schema and the CLI's help list them. No imports, so
 * printing help loads nothing else.
 */
export const reasoningEfforts = ["none", "minimal", "low", "medium", "high", "xhigh"] as const;

export type ResponsesReasoningEffort = (typeof reasoningEfforts)[number];
