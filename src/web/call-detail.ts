import { toRenderedCallText, type RenderedCallText } from "../inspect/index.js";
import { buildOpenAIRequestBody } from "../providers/openai-compatible/build-openai-request-body.js";
import { createIncrementalQwen3Renderer, getTokenCounter } from "../tokens/index.js";
import { textOf, thinkingOf, toolCallsOf, type ModelRequest } from "../types/index.js";
import type { ViewRun, ViewSource } from "./view-source.js";
import { boundPromptText, type BoundedPromptText } from "./bound-prompt-text.js";
import { boundShownText } from "./bound-shown-text.js";

export type PromptView = "template" | "wire";

/** Everything the page shows about one call; built on demand, one call at a time. */
export interface CallDetail {
  index: number;
  view: PromptView;
  /**
   * The wire view shades the bytes shared with the previous call's body; the template view, the
   * reusable tokens. A long prompt comes cut (`omitted`): its start, around the first divergent token, and its end.
   */
  prompt: BoundedPromptText;
  statusBar: string | null;
  response: { text: string; thinking: string; toolCalls: Array<{ name: string; argumentsText: string }> } | null;
  usage: {
    reported: { promptTokens?: number; cachedTokens?: number; cacheWriteTokens?: number; completionTokens?: number; cost?: number } | null;
    counted: { promptTokens: number; reusablePrefixTokens: number; newTokens: number; tailTokens: number; tokenizer: string };
  };
  source: { file: string; line?: number };
}

/** Renders calls' prompts for the page; one Qwen3 renderer keeps its segment cache across calls. */
export interface CallDetailBuilder {
  build(run: ViewRun, runIndex: number, index: number, view: PromptView): Promise<CallDetail | undefined>;
}

/**
 * Renders calls' prompts for the page with the analysis's own meter: its caches already hold every
 * segment's tokens, so a 100k-token prompt is assembled, not tokenized again. With an approximate
 * tokenizer the template text is rendered without tokens and shaded by its character prefix. With
 * background exact counts, the worker that holds those caches renders it once its counts are in.
 */
export function createCallDetailBuilder(source: Pick<ViewSource, "meter" | "exactPrompt">): CallDetailBuilder {
  const { meter } = source;
  const counter = meter.tokenizer === "qwen3" ? getTokenCounter("qwen3") : undefined;
  const renderer = createIncrementalQwen3Renderer();
  const templateText = (request: ModelRequest, previous: ModelRequest | undefined, reusableTokens: number, promptTokens: number): RenderedCallText => {
    const rendered = counter === undefined ? undefined : meter.measure(request).rendered;
    if (rendered !== undefined) return toRenderedCallText(rendered, reusableTokens, (tokens) => counter!.decode!(tokens));
    const textOfRequest = (value: ModelRequest) => renderer.renderPieces(value).map((piece) => piece.text).join("");
    return sharedPrefixText(textOfRequest(request), previous === undefined ? "" : textOfRequest(previous), promptTokens);
  };

  return {
    async build(run, runIndex, index, view) {
      const imported = run.imported.calls[index];
      const analyzed = run.analyzed.calls[index];
      if (imported === undefined || analyzed === undefined) return undefined;
      const exact = view === "template" && run.analyzed.tokenizer.exact ? await source.exactPrompt?.(runIndex, index, analyzed.reusablePrefixTokens) : undefined;
      const prompt =
        exact ??
        (view === "wire"
          ? wireText(imported.request, run.imported.calls[index - 1]?.request, run.imported.model)
          : templateText(imported.request, run.imported.calls[index - 1]?.request, analyzed.reusablePrefixTokens, analyzed.promptTokens));
      const response = imported.response;
      return {
        index,
        view,
        prompt: boundPromptText(prompt),
        statusBar: imported.request.tail === undefined ? null : boundShownText(imported.request.tail.content),
        // Each text cut to its start and end: a recorded response can be megabytes.
        response:
          response === undefined
            ? null
            : {
                text: boundShownText(textOf(response)),
                thinking: boundShownText(
                  thinkingOf(response)
                    .map((part) => part.thinking)
                    .join("\n"),
                ),
                toolCalls: toolCallsOf(response).map((call) => ({ name: boundShownText(call.name), argumentsText: boundShownText(call.argumentsText) })),
              },
        usage: {
          reported: imported.reportedUsage ?? null,
          counted: {
            promptTokens: analyzed.promptTokens,
            reusablePrefixTokens: analyzed.reusablePrefixTokens,
            newTokens: analyzed.newTokens,
            tailTokens: analyzed.tailTokens,
            tokenizer: run.analyzed.tokenizer.description,
          },
        },
        source: imported.source,
      };
    },
  };
}

/** The Chat Completions body as ctxkit would send it; what it shares with the previous call's body is a byte prefix. */
function wireText(request: ModelRequest, previous: ModelRequest | undefined, model: string | undefined): RenderedCallText {
  const bodyOf = (value: ModelRequest) => buildOpenAIRequestBody({ model: model ?? "unknown", stream: true, reasoningRoundTrip: "send", request: value }).body;
  return sharedPrefixText(bodyOf(request), previous === undefined ? "" : bodyOf(previous), 0);
}

/** A text shaded by the characters it shares with the text before it; the first differing character is marked. */
function sharedPrefixText(text: string, before: string, tokens: number): RenderedCallText {
  let shared = 0;
  while (shared < before.length && shared < text.length && before.charCodeAt(shared) === text.charCodeAt(shared)) shared++;
  const result: RenderedCallText = { text, tokens, reusableChars: shared, ranges: [] };
  if (shared < text.length) result.divergentToken = { start: shared, end: shared + 1, index: -1 };
  return result;
}
