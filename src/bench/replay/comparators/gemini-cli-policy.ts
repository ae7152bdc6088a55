import { editBetween } from "../../../context/compression/edit-between.js";
import type { Summarizer } from "../../../context/compression/summarizer.js";
import type { ContextPolicy } from "../../../context/context-policy.js";
import type { StablePrefix } from "../../../context/stable-prefix.js";
import type { TokenCounter } from "../../../tokens/index.js";
import { textOf, type Message, type ToolMessage } from "../../../types/index.js";
import { harnessMessage, summarizeForComparator, tailStartWithin } from "./comparator-summary.js";

export interface GeminiCliOptions {
  contextWindow: number;
  /** Tokens of the request the context would make (system, tools and these messages). */
  countTokens: (messages: readonly Message[], prefix: StablePrefix) => number;
  countMessage: (message: Message) => number;
  counter: TokenCounter;
  summarizer: Summarizer;
}

// gemini-cli's staged pipeline (google-gemini/gemini-cli at 039a3fd9: packages/core/src/context/
// config/profiles.ts, generalistProfile; processors/toolMaskingProcessor.ts,
// nodeDistillationProcessor.ts, nodeTruncationProcessor.ts, stateSnapshotProcessor.ts):
// - on every new message, a tool output or call-argument string over 8,000 tokens is saved to a
//   file and replaced by a <tool_output_masked> pointer (no preview), and a node over 15,000 tokens
//   (a user prompt, a model thought) is distilled;
// - once the history passes the retained budget (65,000), the nodes older than the retained ones
//   are distilled when over 3,000 tokens (a utility-model call: "drastically shorten") and then
//   truncated to 4,000 tokens each;
// - past the max budget (150,000), the aged-out history becomes one state snapshot of at most
//   4,000 tokens — the hysteresis: it trips at max and shrinks to retained.
// The budgets are absolute for Gemini's 1M windows; here max is at most 90% of the window and
// retained keeps its 65 : 150 ratio to it. The per-node thresholds stay as they are.
export const MASK_TOKENS = 8_000;
export const DISTILL_TOKENS = 3_000;
export const IMMEDIATE_DISTILL_TOKENS = 15_000;
export const TRUNCATE_TOKENS = 4_000;
export const SNAPSHOT_TOKENS = 4_000;
const RETAINED = 65_000;
const MAX = 150_000;

/** The two budgets at this window: `max` (the snapshot trigger) and `retained` (what is kept whole). */
export function geminiBudgets(contextWindow: number): { retained: number; max: number } {
  const max = Math.min(MAX, Math.round(contextWindow * 0.9));
  return { max, retained: Math.round((max * RETAINED) / MAX) };
}

/** gemini-cli-like: mask large outputs at write time; distil and truncate aged-out nodes over the retained budget; snapshot over max. */
export function createGeminiCliPolicy(options: GeminiCliOptions): ContextPolicy {
  const { retained, max } = geminiBudgets(options.contextWindow);
  const own = new Set<string>();
  let previousSnapshot: string | undefined;
  return {
    name: "gemini-cli",
    // A comparator replays one recorded agent; it has no children.
    inherit: "never",
    processToolResult: (result) => maskToolOutput(result, options.counter),
    async prepareContext(state) {
      // The masking processor also masks the model's own call arguments (a file written in one
      // command); replay appends a recorded answer after its call, so it is masked before the next.
      let messages: Message[] = state.messages.map((message) => maskToolCallArguments(message, options.counter));
      // Immediate distillation: any node over 15,000 tokens (a huge thought, a pasted file).
      for (const [index, message] of messages.entries()) if (!own.has(message.meta.id)) messages[index] = await normalizeNode(message, options, state.signal, IMMEDIATE_DISTILL_TOKENS, false);
      const steps: string[] = messages.some((message, index) => message !== state.messages[index]) ? ["masked or distilled new nodes"] : [];
      if (!state.overflow && options.countTokens(messages, state.prefix) <= retained) {
        const edit = editBetween(state.messages, messages, `gemini-cli context management: ${steps.join("; ")}`);
        return edit === undefined ? undefined : [edit];
      }
      // Normalisation: nodes older than the newest `retained` tokens.
      const agedOut = tailStartWithin(messages, retained, options.countMessage);
      let distilled = 0;
      for (let index = 0; index < agedOut; index++) {
        const message = messages[index]!;
        if (own.has(message.meta.id)) continue;
        const shrunk = await normalizeNode(message, options, state.signal);
        if (shrunk !== message) {
          messages[index] = shrunk;
          distilled++;
        }
      }
      if (distilled > 0) steps.push(`distilled or truncated ${distilled} aged-out nodes`);
      if (state.overflow || options.countTokens(messages, state.prefix) > max) {
        const end = tailStartWithin(messages, retained, options.countMessage);
        if (end > 0) {
          const snapshot = await summarizeForComparator({
            messages: messages.slice(0, end),
            summarizer: options.summarizer,
            ownMessageIds: own,
            ...(previousSnapshot ? { previousSummary: previousSnapshot } : {}),
            maxTokens: Math.min(SNAPSHOT_TOKENS, Math.round(options.contextWindow * 0.1)),
            signal: state.signal,
          });
          previousSnapshot = snapshot;
          const message = harnessMessage(`<state_snapshot>\n${snapshot}\n</state_snapshot>`, `gemini-snapshot-${state.iteration}`, state.now.toISOString());
          own.add(message.meta.id);
          messages = [message, ...messages.slice(end)];
          steps.push("state snapshot");
        }
      }
      const edit = editBetween(state.messages, messages, `gemini-cli context management: ${steps.join("; ")}`);
      return edit === undefined ? undefined : [edit];
    },
  };
}

/** toolMaskingProcessor: an output over 8,000 tokens goes to a file; the context keeps where. */
export function maskToolOutput(result: ToolMessage, counter: TokenCounter): ToolMessage {
  if (result.content.includes("<tool_output_masked>") || counter.count(result.content) <= MASK_TOKENS) return result;
  const megabytes = (Buffer.byteLength(result.content, "utf8") / 1024 / 1024).toFixed(2);
  const lines = result.content.split("\n").length;
  const content = `<tool_output_masked>\n[Tool observation string (${megabytes}MB, ${lines} lines) masked to preserve context window. Full string saved to: tool-outputs/${result.toolName}_${result.toolCallId}_observation.txt]\n</tool_output_masked>`;
  return { ...result, content };
}

/** toolMaskingProcessor on a call's intent: every argument string over 8,000 tokens becomes a pointer. */
export function maskToolCallArguments(message: Message, counter: TokenCounter): Message {
  if (message.role !== "assistant") return message;
  let changed = false;
  const content = message.content.map((part) => {
    if (part.type !== "tool_call" || counter.count(part.argumentsText) <= MASK_TOKENS) return part;
    const args = Object.fromEntries(
      Object.entries((part.arguments ?? {}) as Record<string, unknown>).map(([key, value]) =>
        typeof value === "string" && counter.count(value) > MASK_TOKENS ? [key, `<tool_output_masked>\n[Tool intent string (${value.split("\n").length} lines) masked to preserve context window.]\n</tool_output_masked>`] : [key, value],
      ),
    );
    changed = true;
    return { ...part, arguments: args, argumentsText: JSON.stringify(args) };
  });
  return changed ? { ...message, content, meta: { ...message.meta, id: `${message.meta.id}:masked` } } : message;
}

/** Distillation of a node over `threshold` tokens (kept only when shorter), then truncation to 4,000. */
async function normalizeNode(message: Message, options: GeminiCliOptions, signal: AbortSignal, threshold = DISTILL_TOKENS, truncate = true): Promise<Message> {
  if (message.role === "system") return message;
  const text = message.role === "assistant" ? textOf(message) : message.content;
  const tokens = options.counter.count(text);
  if (tokens <= threshold) return message;
  const label = message.role === "tool" ? message.toolName : message.role === "assistant" ? "AGENT_THOUGHT" : "USER_PROMPT";
  let next = await options.summarizer.summarize(
    { purpose: "tool-result", sources: [{ label, kind: message.role === "tool" ? "tool" : message.role, text, messageId: message.meta.id }], maxTokens: Math.round(tokens / 10) },
    signal,
  );
  if (options.counter.count(next) >= tokens) next = text;
  if (truncate && options.counter.count(next) > TRUNCATE_TOKENS) next = `${next.slice(0, Math.floor((next.length * TRUNCATE_TOKENS) / options.counter.count(next)))}\n[truncated]`;
  if (next === text) return message;
  const id = `${message.meta.id}:distilled`;
  if (message.role !== "assistant") return { ...message, content: next, meta: { ...message.meta, id } };
  // The thought is distilled; the calls it made stay, so their results keep their call.
  return { ...message, content: [{ type: "text", text: next }, ...message.content.filter((part) => part.type === "tool_call")], meta: { ...message.meta, id } };
}
