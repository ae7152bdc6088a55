import type { SystemPrompt } from "../../types/index.js";
import type { AnthropicTextBlock } from "./anthropic-wire-types.js";

/**
 * The system prompt as an array of text blocks — static part first, session part second — so a cache
 * breakpoint can sit between the part shared by every session and the per-session part.
 * Empty parts are left out: the API rejects empty text blocks ("text content blocks must be non-empty").
 */
export function convertToAnthropicSystem(system: SystemPrompt): AnthropicTextBlock[] {
  const blocks: AnthropicTextBlock[] = [];
  if (system.staticText !== "") blocks.push({ type: "text", text: system.staticText });
  if (system.sessionText !== undefined && system.sessionText !== "") blocks.push({ type: "text", text: system.sessionText });
  return blocks;
}
