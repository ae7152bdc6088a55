import type { LayerDifference, LayerName, RequestLayer } from "../../context/prefix-guard/index.js";
import type { ModelRequest } from "../../types/index.js";

/** Why a request stopped extending the previous one. */
export type BreakCause =
  | "system_changed"
  | "tools_reordered"
  | "tools_changed"
  | "messages_removed"
  | "message_edited"
  | "history_replaced"
  | "template_rerender";

/** A cache break of one call: where the prompt stopped repeating the previous one, and what it cost. */
export interface CallBreak {
  layer: LayerName;
  /** Index within the layer (tool or message index); -1 when unknown. */
  index: number;
  cause: BreakCause;
  /** One sentence for people: what changed. */
  detail: string;
  /** First differing byte of the body (layer texts concatenated, as the prefix guard counts); absent for template breaks. */
  firstDifferingByte?: number;
  /** First token that could not be reused (= the reusable prefix). */
  firstDifferingToken: number;
  /** Tokens of the previous prompt (without its tail) that the cache could no longer serve. */
  lostTokens: number;
  declared: boolean;
  reason?: string;
  excerpt?: { previous: string; next: string };
}

export interface BreakContext {
  previous: ModelRequest;
  next: ModelRequest;
  previousBody: readonly RequestLayer[];
  nextLayers: readonly RequestLayer[];
  reusableTokens: number;
  lostTokens: number;
  declared?: { reason: string };
}

/** Describes a layer difference found between two consecutive requests. */
export function describeLayerBreak(difference: LayerDifference, context: BreakContext): CallBreak {
  const { cause, detail } = classify(difference, context);
  const result: CallBreak = {
    layer: difference.layer,
    index: difference.index,
    cause,
    detail,
    firstDifferingByte: difference.bodyOffset,
    firstDifferingToken: context.reusableTokens,
    lostTokens: context.lostTokens,
    declared: context.declared !== undefined,
    excerpt: {
      previous: excerpt(difference.previousText, difference.offsetInLayer),
      next: difference.nextText === undefined ? "(removed)" : excerpt(difference.nextText, difference.offsetInLayer),
    },
  };
  if (context.declared !== undefined) result.reason = context.declared.reason;
  return result;
}

/** A break the chat template causes on its own (no layer changed). */
export function describeTemplateBreak(messageIndex: number | undefined, context: Pick<BreakContext, "reusableTokens" | "lostTokens">): CallBreak {
  return {
    layer: "message",
    index: messageIndex ?? -1,
    cause: "template_rerender",
    detail:
      `The chat template renders ${messageIndex === undefined ? "an earlier message" : `message ${messageIndex}`} differently now that more messages follow ` +
      "(Qwen3 hides the reasoning of turns before the last user query): the prefix cache stops there.",
    firstDifferingToken: context.reusableTokens,
    lostTokens: context.lostTokens,
    declared: false,
  };
}

function classify(difference: LayerDifference, context: BreakContext): { cause: BreakCause; detail: string } {
  const { previous, next } = context;
  switch (difference.layer) {
    case "request":
    case "system_static":
    case "system_session":
      return { cause: "system_changed", detail: `The system prompt changed at character ${difference.offsetInLayer}.` };
    case "tools": {
      const before = previous.tools.map((tool) => tool.name);
      const after = next.tools.map((tool) => tool.name);
      if (before.length === after.length && [...before].sort().join("\n") === [...after].sort().join("\n")) {
        return { cause: "tools_reordered", detail: `The same ${before.length} tools were sent in a different order (first moved: tools[${difference.index}]).` };
      }
      return { cause: "tools_changed", detail: `The tool definitions changed at tools[${difference.index}].` };
    }
    case "message":
    case "tail":
      return classifyMessage(difference.index, context);
  }
}

function classifyMessage(index: number, context: BreakContext): { cause: BreakCause; detail: string } {
  const previousMessages = context.previousBody.filter((layer) => layer.layer === "message");
  const nextMessages = context.nextLayers.filter((layer) => layer.layer === "message");
  const candidate = nextMessages[index];
  if (candidate === undefined) {
    return { cause: "messages_removed", detail: `Messages ${index}–${previousMessages.length - 1} of the previous request are gone.` };
  }
  for (let shift = 1; index + shift < previousMessages.length; shift++) {
    if (previousMessages[index + shift]!.hash === candidate.hash) {
      return { cause: "messages_removed", detail: `${shift} message${shift === 1 ? "" : "s"} removed at message ${index}; later history moved up.` };
    }
  }
  if (context.next.messages.length < context.previous.messages.length) {
    return { cause: "history_replaced", detail: `Messages from ${index} on were replaced by fewer, different ones (${context.previous.messages.length} → ${context.next.messages.length} messages).` };
  }
  return { cause: "message_edited", detail: `Message ${index} (${context.previous.messages[index]?.role ?? "?"}) changed after it was sent.` };
}

function excerpt(text: string, offset: number): string {
  return text.slice(Math.max(0, offset - 20), offset + 30);
}
