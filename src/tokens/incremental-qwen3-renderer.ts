import { ConfigError } from "../types/errors.js";
import type { Message } from "../types/message.js";
import type { ModelRequest } from "../types/model-request.js";
import type { ToolDefinition } from "../types/tool.js";
import type { HfChatMessage } from "./hf-chat-message.js";
import { lastQueryIndex } from "./qwen3-prefix-hazards.js";
import { renderChatTemplate } from "./render-chat-template.js";
import { systemTextOf, toHfChatMessage } from "./to-hf-chat-messages.js";

/** A part of a rendered prompt and what it renders. Joined in order, the pieces are the prompt. */
export interface RenderedPromptPiece {
  text: string;
  /** The header is the system prompt and the tool list (left out when both are empty). */
  source: "header" | "message" | "generation_prompt";
  /** For a message: its index in `request.messages`; the tail is one past the last. */
  messageIndex?: number;
}

export interface IncrementalQwen3Renderer {
  /** The prompt Qwen3's template renders for the request, with the generation prompt. */
  render(request: ModelRequest): string;
  /** The same prompt as one piece per message, after the header and before the generation prompt. */
  renderPieces(request: ModelRequest): RenderedPromptPiece[];
  /** The header as the template renders it for this system text and tools (none by default). */
  renderHeader(system: string, tools?: readonly ToolDefinition[]): string;
}

/** A message as the template reads it, and its renderings by context (see `variantOf`), built once each. */
interface MessageEntry {
  hf: HfChatMessage;
  pieces: Array<string | undefined>;
}

const query: HfChatMessage = { role: "user", content: "q" };
const queryText = "<|im_start|>user\nq<|im_end|>\n";
const toolProbe: HfChatMessage = { role: "tool", content: "r" };
const toolProbeText = "<|im_start|>user\n<tool_response>\nr\n</tool_response><|im_end|>\n";
const generationPrompt = "<|im_start|>assistant\n";
const maxHeaders = 256;

/**
 * Renders requests as Qwen3's chat template does, in O(new messages) per call instead of
 * O(context): a full render converts every message and all tool schemas into template values on
 * every call. Qwen3's output is the header (system + tools) followed by one piece per message whose
 * only context is: for an assistant turn, whether it comes after the last real user query and
 * whether it is last (that decides its `<think>` block); for a tool result, whether its neighbours
 * are tool results (they share one user turn). The header and assistant pieces are rendered by the
 * real template on small probes, so reasoning extraction and `tojson` are the template's own; user
 * and tool pieces are the template's literal strings. Each piece is built once per message and
 * context and then reused as the same string. Callers check the result against `renderModelRequest`
 * and fall back to it on a difference, because a template or message shape it does not expect would
 * make it differ.
 */
export function createIncrementalQwen3Renderer(): IncrementalQwen3Renderer {
  const entries = new WeakMap<Message, MessageEntry>();
  // Tools are keyed by content, not identity: callers often build a fresh copy of the same list.
  const toolIds = new WeakMap<ToolDefinition, number>();
  const contentIds = new Map<string, number>();
  const headers = new Map<string, string>();

  const toolIdOf = (tool: ToolDefinition): number => {
    let id = toolIds.get(tool);
    if (id === undefined) {
      const content = JSON.stringify(tool);
      id = contentIds.get(content);
      if (id === undefined) contentIds.set(content, (id = contentIds.size));
      toolIds.set(tool, id);
    }
    return id;
  };
  const render = (messages: HfChatMessage[], tools?: readonly ToolDefinition[]) => renderChatTemplate({ messages, ...(tools ? { tools } : {}), addGenerationPrompt: false });
  const renderHeader = (system: string, tools: readonly ToolDefinition[] = []): string => {
    const key = `${tools.map(toolIdOf).join(",")}\u0000${system}`;
    let header = headers.get(key);
    if (header === undefined) {
      // Reordered tools or a changing system prompt make a new header on every call: keep few.
      if (headers.size >= maxHeaders) headers.clear();
      const systemMessages: HfChatMessage[] = system === "" ? [] : [{ role: "system", content: system }];
      header = between(render([...systemMessages, query], tools), "", queryText);
      headers.set(key, header);
    }
    return header;
  };
  const entryOf = (message: Message): MessageEntry => {
    let entry = entries.get(message);
    if (entry === undefined) entries.set(message, (entry = { hf: toHfChatMessage(message), pieces: [] }));
    return entry;
  };
  const pieceOf = (message: HfChatMessage, variant: number): string => {
    if (message.role === "assistant") {
      if (variant === history) return between(render([message, query]), "", queryText);
      if (variant === last) return between(render([query, message]), queryText, "");
      return between(render([query, message, toolProbe]), queryText, toolProbeText);
    }
    if (message.role === "tool") {
      return `${variant & opensTurn ? "<|im_start|>user" : ""}\n<tool_response>\n${message.content}\n</tool_response>${variant & closesTurn ? "<|im_end|>\n" : ""}`;
    }
    return `<|im_start|>${message.role}\n${message.content}<|im_end|>\n`;
  };
  /** The prompt's pieces in order, each passed through `make`. */
  const collect = <T>(request: ModelRequest, make: (text: string, source: RenderedPromptPiece["source"], messageIndex?: number) => T): T[] => {
    const trajectory = (request.tail === undefined ? request.messages : [...request.messages, request.tail]).map(entryOf);
    const hf = trajectory.map((entry) => entry.hf);
    // The system message is never a query, so the last query of the trajectory alone is the
    // template's `ns.last_query_index`, shifted by one when there is a system message.
    const lastQuery = lastQueryIndex(hf);
    const pieces: T[] = [];
    const header = renderHeader(systemTextOf(request.system), request.tools);
    if (header !== "") pieces.push(make(header, "header"));
    for (let index = 0; index < trajectory.length; index++) {
      const entry = trajectory[index]!;
      const variant = variantOf(hf, index, lastQuery);
      let text = entry.pieces[variant];
      if (text === undefined) entry.pieces[variant] = text = pieceOf(entry.hf, variant);
      pieces.push(make(text, "message", index));
    }
    pieces.push(make(generationPrompt, "generation_prompt"));
    return pieces;
  };

  return {
    render: (request) => collect(request, (text) => text).join(""),
    renderPieces: (request) => collect(request, (text, source, messageIndex) => (messageIndex === undefined ? { text, source } : { text, source, messageIndex })),
    renderHeader,
  };
}

// A message's rendering depends on its context only through these variants.
const history = 0;
const current = 1;
const last = 2;
const opensTurn = 2;
const closesTurn = 1;

/**
 * An assistant turn: before the last query (history, no `<think>` block), after it, or after it and
 * last. A tool result: whether it opens and whether it closes the user turn it shares with the tool
 * results next to it. Other messages have one rendering.
 */
function variantOf(messages: readonly HfChatMessage[], index: number, lastQuery: number): number {
  const role = messages[index]!.role;
  if (role === "assistant") return index <= lastQuery ? history : index === messages.length - 1 ? last : current;
  if (role !== "tool") return 0;
  const opens = index === 0 || messages[index - 1]!.role !== "tool";
  const closes = index === messages.length - 1 || messages[index + 1]!.role !== "tool";
  return (opens ? opensTurn : 0) | (closes ? closesTurn : 0);
}

function between(text: string, before: string, after: string): string {
  if (!text.startsWith(before) || !text.endsWith(after)) {
    throw new ConfigError("template_render_failed", "A Qwen3 template probe did not render as expected; render these requests with renderModelRequest instead.");
  }
  return text.slice(before.length, text.length - after.length);
}
