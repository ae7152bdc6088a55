import type { Provider } from "../../providers/provider.js";
import { textOf, type AssistantMessage, type ModelRequest, type ToolDefinition, ContextError } from "../../types/index.js";
import { CHARS_PER_TOKEN } from "./extractive-summary.js";
import { keepMissingFacts } from "./keep-missing-facts.js";
import { SUMMARY_SECTIONS } from "./sectioned-summary.js";
import type { Summarizer, SummaryInput } from "./summarizer.js";

export interface ModelSummarizerOptions {
  /** Longest input sent to the summarising model, in characters (default 400 000): longer sources lose their middles. */
  maxInputChars?: number;
}

const SYSTEM_PROMPT =
  "You compress the working memory of another AI agent so it can continue its task with less context. " +
  "Keep every fact the task may need exactly: names, dates, numbers with units, file paths, URLs, ids, " +
  "hashes, commands and error messages, verbatim. Keep failed attempts and why they failed. Drop navigation, " +
  "boilerplate and repetition. Write plain text, no preamble.";

/**
 * Summaries written by a model (the seed's "compression is understanding": the compressor should be
 * close to the main model). The output is checked for omissions (missing identifiers and error lines
 * are appended). A failed or empty answer throws `summarizer_failed`; compression policies then fall
 * back to the deterministic summariser.
 */
export function createModelSummarizer(provider: Provider, options: ModelSummarizerOptions = {}): Summarizer {
  const maxInputChars = options.maxInputChars ?? 400_000;
  return {
    name: `model:${provider.model}`,
    async summarize(input, signal) {
      const request = summaryRequestFor(input, maxInputChars);
      let text = "";
      for await (const event of provider.stream(request, signal)) {
        if (event.type === "error") throw new ContextError("summarizer_failed", `The summarising model failed: ${event.error.message}`, { cause: event.error });
        if (event.type === "done") {
          const answer: AssistantMessage = { role: "assistant", content: event.response.content, meta: { id: "summary", origin: "model", createdAt: "" } };
          text = textOf(answer).trim();
        }
      }
      if (text === "") throw new ContextError("summarizer_failed", `The summarising model (${provider.model}) returned no text.`);
      return keepMissingFacts(text, input.sources, input.maxTokens * CHARS_PER_TOKEN);
    },
  };
}

const systemPrompt = { staticText: SYSTEM_PROMPT };

/**
 * The request a model summariser sends for `input`: a call of its own (its system prompt, no
 * tools, the sources in the prompt) or, with `input.inBand`, the conversation as last sent with the
 * instruction appended as one more user message — the same prefix, so a prompt cache serves it.
 * Replay prices summaries from this request.
 */
export function summaryRequestFor(input: SummaryInput, maxInputChars = 400_000): ModelRequest {
  const settings = { maxOutputTokens: Math.max(256, Math.round(input.maxTokens * 1.5)), temperature: 0 };
  if (input.inBand !== undefined) {
    const instruction = { role: "user" as const, content: inBandPromptFor(input), meta: { id: "summary_request", origin: "harness" as const, createdAt: "" } };
    // The prefix's own objects: a request is compared with the one before by them (replay's meter).
    return { system: input.inBand.prefix.system, tools: input.inBand.prefix.tools as ToolDefinition[], messages: [...input.inBand.messages, instruction], cacheBreakpoints: [], settings };
  }
  return {
    system: systemPrompt,
    tools: [],
    messages: [{ role: "user", content: promptFor(input, maxInputChars), meta: { id: "summary_request", origin: "harness", createdAt: "" } }],
    cacheBreakpoints: [],
    settings,
  };
}

/** In-band, the sources are the conversation above: only the instruction (and what to merge) is new. */
function inBandPromptFor(input: SummaryInput): string {
  const parts = [`${SYSTEM_PROMPT} Summarise the conversation above for the agent that will continue it; the summary replaces it.`];
  if (input.previousSummary) parts.push(`The previous summary (merge with it; keep what is still true):\n${input.previousSummary}`);
  parts.push(instructionFor(input));
  return parts.join("\n\n");
}

function promptFor(input: SummaryInput, maxInputChars: number): string {
  const parts: string[] = [];
  if (input.task) parts.push(`The agent's task:\n${input.task}`);
  if (input.query) parts.push(`Given the search query: ${input.query}`);
  if (input.known) parts.push(`Current context (already known; do not repeat it):\n${input.known}`);
  if (input.previousSummary) parts.push(`The previous summary (merge with it; keep what is still true):\n${input.previousSummary}`);
  parts.push(instructionFor(input));
  const perSource = Math.floor(maxInputChars / Math.max(1, input.sources.length));
  for (const source of input.sources) parts.push(`<source label=${JSON.stringify(source.label)}${source.citation ? ` cite=${JSON.stringify(source.citation)}` : ""}${source.isError ? " error" : ""}>\n${clipMiddle(source.text, perSource)}\n</source>`);
  return parts.join("\n\n");
}

function instructionFor(input: SummaryInput): string {
  const length = `at most about ${input.maxTokens} tokens`;
  const cite = input.citations ? " End every fact with its source in brackets, e.g. [source: https://…] or [source: path/to/file]." : "";
  switch (input.purpose) {
    case "tool-result":
      return `Summarise this tool output in ${length}, keeping what matters for the task.${cite}`;
    case "tool-results":
      return `Summarise these tool outputs together in ${length}: merge facts that several sources repeat.${cite}`;
    case "turns":
      return `Write one line per source (a turn of the agent), git-log style: "- <label>: what was done and found", keeping every identifier and error. ${length}.`;
    case "compaction":
      return `Write a summary in ${length} with these sections as "## " headings: ${SUMMARY_SECTIONS.join(", ")}. Under "Failures and why" keep each failed attempt and its error message.`;
  }
}

function clipMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.6);
  return `${text.slice(0, head)}\n[… ${text.length - maxChars} characters omitted …]\n${text.slice(text.length - (maxChars - head))}`;
}

