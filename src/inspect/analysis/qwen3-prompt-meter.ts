import { getTokenCounter, renderModelRequest, sharedSegmentPrefix } from "../../tokens/index.js";
import { createApproximatePromptMeter } from "./approximate-prompt-meter.js";
import { emptyComposition, type Composition } from "./composition.js";
import { createFullPromptRenderer } from "./full-prompt-renderer.js";
import type { Measurement, PromptMeter } from "./prompt-meter.js";
import { createQwen3PromptRenderer } from "./qwen3-prompt-renderer.js";
import type { PromptRenderer, RenderedPrompt } from "./rendered-prompt.js";

export interface Qwen3PromptMeterOptions {
  /** "incremental" (default): each message rendered and tokenized once; "full": the whole template per call. */
  rendering?: "incremental" | "full";
}

/**
 * Exact Qwen3 prompt tokens: each request rendered with Qwen3's chat template as vLLM or llama.cpp
 * would, and tokenized with Qwen3's tokenizer. The reusable prefix is the token prefix shared with
 * the previous prompt, so Qwen3's own quirks (old reasoning hidden once a new user query arrives)
 * show up as breaks too.
 */
export function createQwen3PromptMeter(options: Qwen3PromptMeterOptions = {}): PromptMeter {
  const counter = getTokenCounter("qwen3");
  const renderer: PromptRenderer = options.rendering === "full" ? createFullPromptRenderer(counter) : createQwen3PromptRenderer(counter);
  // Only for the composition when the renderer cannot attribute segments (full rendering).
  let approximate: PromptMeter | undefined;
  const compositionOf = (measurement: Omit<Measurement, "composition">, rendered: RenderedPrompt): Composition => {
    if (rendered.owners.length === 0) {
      approximate ??= createApproximatePromptMeter("qwen3", counter);
      return approximate.measure(measurement.request).composition;
    }
    const composition = emptyComposition();
    rendered.owners.forEach((owner, index) => {
      const tokens = rendered.segments[index]!.tokens.length;
      if (owner.part === "header") {
        composition.system += rendered.systemTokens;
        composition.tools += tokens - rendered.systemTokens;
      } else if (owner.part === "generation_prompt") composition.assistant += tokens;
      else composition[owner.part] += tokens;
    });
    return composition;
  };

  return {
    tokenizer: "qwen3",
    description: "Qwen3 chat template, exact Qwen3 tokens",
    exact: true,
    measure(request) {
      const rendered = renderer.render(request);
      const tailTokens = request.tail === undefined ? 0 : tailTokensOf(rendered, request.messages.length);
      const partial = { request, promptTokens: rendered.total, tailTokens, rendered };
      return { ...partial, composition: compositionOf(partial, rendered) };
    },
    reuse(previous, next, difference) {
      const shared = sharedSegmentPrefix(previous.rendered!, next.rendered!);
      if (difference !== undefined || shared.differingSegment === undefined) return { tokens: shared.tokens };
      // The layers agree, yet the tokens differ: the template re-rendered a message already sent,
      // unless what differs is only the previous tail or generation prompt.
      const owner = previous.rendered!.owners[shared.differingSegment];
      const isMessage = owner !== undefined && owner.messageIndex !== undefined && owner.messageIndex < previous.request.messages.length;
      if (previous.rendered!.owners.length === 0) {
        const body = previous.promptTokens - previous.tailTokens - generationPromptTokens(previous.rendered!);
        return shared.tokens < body ? { tokens: shared.tokens, templateBreak: {} } : { tokens: shared.tokens };
      }
      return isMessage ? { tokens: shared.tokens, templateBreak: { messageIndex: owner.messageIndex } } : { tokens: shared.tokens };
    },
    countMessage(message) {
      approximate ??= createApproximatePromptMeter("qwen3", counter);
      return approximate.countMessage(message);
    },
    verify(measurement) {
      const joined = measurement.rendered!.segments.map((segment) => segment.text).join("");
      return joined === renderModelRequest(measurement.request);
    },
    stats: () => ({ cachedSegments: renderer.cachedSegments, segmentLookups: renderer.segmentLookups }),
  };
}

/** Without owners the last segment is taken to be the generation prompt (`<|im_start|>assistant\n`, 3 tokens). */
function generationPromptTokens(rendered: RenderedPrompt): number {
  return rendered.segments.at(-1)?.tokens.length ?? 0;
}

/** The tail's segment: attributed by owner, or (full rendering) the one before the generation prompt. */
function tailTokensOf(rendered: RenderedPrompt, tailIndex: number): number {
  if (rendered.owners.length === 0) return rendered.segments.at(-2)?.tokens.length ?? 0;
  return rendered.owners.reduce((total, owner, index) => (owner.messageIndex === tailIndex ? total + rendered.segments[index]!.tokens.length : total), 0);
}
