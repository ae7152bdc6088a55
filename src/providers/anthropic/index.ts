export { createAnthropic, type AnthropicSettings } from "./create-anthropic.js";
export type { AnthropicCacheTtl } from "./place-cache-control.js";
export type { AnthropicContextManagement } from "./anthropic-context-management.js";
export type { AnthropicEffort } from "./anthropic-efforts.js";
