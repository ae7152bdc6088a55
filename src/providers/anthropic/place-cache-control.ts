import type { CacheBreakpoint } from "../../types/index.js";
import type {
  AnthropicCacheControl,
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicTextBlock,
  AnthropicTool,
} from "./anthropic-wire-types.js";
import type { AnthropicMessagesConversion } from "./convert-to-anthropic-messages.js";
import { isServerBlockType } from "./server-block-type.js";

export type AnthropicCacheTtl = "5m" | "1h";

/** "A maximum of 4 cache breakpoints" per request (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching). */
export const maxAnthropicCacheBreakpoints = 4;

export interface CacheControlInput {
  tools: AnthropicTool[];
  system: AnthropicTextBlock[];
  /** Whether `system[0]` is the static system text (it is absent when the static text is empty). */
  hasStaticSystemBlock: boolean;
  conversion: AnthropicMessagesConversion;
  breakpoints: CacheBreakpoint[];
  ttl: AnthropicCacheTtl;
}

export interface CacheControlResult {
  tools: AnthropicTool[];
  system: AnthropicTextBlock[];
  messages: AnthropicMessage[];
}

type Target =
  | { area: "tools"; index: number }
  | { area: "system"; index: number }
  | { area: "messages"; messageIndex: number; blockIndex: number };

/**
 * Puts `cache_control` markers where the request asks, without mutating the input.
 * - `system_static`: the static system block.
 * - `prefix`: the end of the stable prefix. Anthropic caches in the order tools → system → messages, so
 *   that is the last system block (or the last tool when there is no system prompt).
 * - `message`: the last block of the wire message holding that trajectory message.
 *
 * A marker never lands on the tail (the status bar changes every call, so a breakpoint there writes a
 * new cache entry every turn and is never read back) nor on a thinking block (the API refuses
 * `cache_control` there); it moves back to the nearest earlier block that may carry one.
 * Markers landing on the same block count once; beyond 4, the earliest are dropped and the latest
 * kept, because the latest breakpoint covers the longest prefix. Breakpoints that point at nothing
 * (an empty system prompt, an index outside the trajectory) are ignored.
 */
export function placeCacheControl(input: CacheControlInput): CacheControlResult {
  const messages = input.conversion.messages;
  const blockOffsets: number[] = [];
  let offset = input.tools.length + input.system.length;
  for (const message of messages) {
    blockOffsets.push(offset);
    offset += message.content.length;
  }
  const ordinal = (target: Target): number =>
    target.area === "tools"
      ? target.index
      : target.area === "system"
        ? input.tools.length + target.index
        : (blockOffsets[target.messageIndex] ?? 0) + target.blockIndex;

  const byOrdinal = new Map<number, Target>();
  for (const breakpoint of input.breakpoints) {
    const target = resolveTarget(breakpoint, input);
    if (target !== undefined) byOrdinal.set(ordinal(target), target);
  }
  const chosen = [...byOrdinal.entries()]
    .sort(([left], [right]) => left - right)
    .slice(-maxAnthropicCacheBreakpoints)
    .map(([, target]) => target);

  const cacheControl: AnthropicCacheControl = input.ttl === "1h" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
  const tools = [...input.tools];
  const system = [...input.system];
  const result = messages.map((message) => ({ role: message.role, content: [...message.content] }));
  for (const target of chosen) {
    if (target.area === "tools") tools[target.index] = { ...tools[target.index]!, cache_control: cacheControl };
    else if (target.area === "system") system[target.index] = { ...system[target.index]!, cache_control: cacheControl };
    else {
      const content = result[target.messageIndex]!.content;
      content[target.blockIndex] = withCacheControl(content[target.blockIndex]!, cacheControl);
    }
  }
  return { tools, system, messages: result };
}

function resolveTarget(breakpoint: CacheBreakpoint, input: CacheControlInput): Target | undefined {
  switch (breakpoint.kind) {
    case "system_static":
      return input.hasStaticSystemBlock ? { area: "system", index: 0 } : undefined;
    case "prefix":
      if (input.system.length > 0) return { area: "system", index: input.system.length - 1 };
      return input.tools.length > 0 ? { area: "tools", index: input.tools.length - 1 } : undefined;
    case "message": {
      const messageIndex = input.conversion.wireIndexOf[breakpoint.index];
      if (messageIndex === undefined) return undefined;
      const message = input.conversion.messages[messageIndex];
      return message === undefined ? undefined : lastCacheableBlockAtOrBefore(input.conversion, messageIndex, message.content.length - 1);
    }
  }
}

function lastCacheableBlockAtOrBefore(conversion: AnthropicMessagesConversion, messageIndex: number, blockIndex: number): Target | undefined {
  for (let m = messageIndex; m >= 0; m--) {
    const content = conversion.messages[m]?.content ?? [];
    for (let b = m === messageIndex ? blockIndex : content.length - 1; b >= 0; b--) {
      const isTail = conversion.tail?.messageIndex === m && conversion.tail.blockIndex === b;
      if (!isTail && canCarryCacheControl(content[b])) return { area: "messages", messageIndex: m, blockIndex: b };
    }
  }
  return undefined;
}

function canCarryCacheControl(block: AnthropicContentBlock | undefined): boolean {
  return block !== undefined && block.type !== "thinking" && block.type !== "redacted_thinking" && !isServerBlock(block);
}

/** Server blocks go back exactly as the API sent them: no marker is added to them. */
function isServerBlock(block: AnthropicContentBlock): boolean {
  return isServerBlockType(block.type);
}

function withCacheControl(block: AnthropicContentBlock, cacheControl: AnthropicCacheControl): AnthropicContentBlock {
  // Thinking and server blocks are filtered out by canCarryCacheControl; this keeps the type checker honest.
  if (block.type === "thinking" || block.type === "redacted_thinking" || isServerBlock(block)) return block;
  return { ...block, cache_control: cacheControl };
}
