import { lastQueryIndex, renderChatTemplate, systemTextOf, toHfChatMessage, type HfChatMessage } from "../../tokens/index.js";
import { CtxkitError, type Message, type ModelRequest, type ToolDefinition, type UserMessage } from "../../types/index.js";

export interface IncrementalQwen3Renderer {
  /** The prompt Qwen3's template renders for the request, with the generation prompt. */
  render(request: ModelRequest): string;
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
 * every call, which is most of the benchmark's time. Qwen3's output is the header (system + tools)
 * followed by one piece per message whose only context is: for an assistant turn, whether it comes
 * after the last real user query and whether it is last (that decides its `<think>` block); for a
 * tool result, whether its neighbours are tool results (they share one user turn). The header and
 * assistant pieces are rendered by the real template on small probes and cached; user and tool
 * pieces are the template's literal strings. Callers check it against `renderModelRequest` (the
 * benchmark does, once per dialogue and mode) because a template or message shape it does not
 * expect would make it differ.
 */
export function createIncrementalQwen3Renderer(): IncrementalQwen3Renderer {
  const hfMessages = new WeakMap<Message, HfChatMessage>();
  const assistantPieces = new WeakMap<HfChatMessage, Map<string, string>>();
  // Tools are keyed by content, not identity: every dialogue and mode freezes its own copies.
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
  const headerOf = (system: string, tools: readonly ToolDefinition[]): string => {
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
  const assistantPiece = (message: HfChatMessage, variant: "history" | "current" | "last"): string => {
    let variants = assistantPieces.get(message);
    if (variants === undefined) assistantPieces.set(message, (variants = new Map()));
    let piece = variants.get(variant);
    if (piece === undefined) {
      if (variant === "history") piece = between(render([message, query]), "", queryText);
      else if (variant === "last") piece = between(render([query, message]), queryText, "");
      else piece = between(render([query, message, toolProbe]), queryText, toolProbeText);
      variants.set(variant, piece);
    }
    return piece;
  };
  const hfOf = (message: Message): HfChatMessage => {
    let converted = hfMessages.get(message);
    if (converted === undefined) hfMessages.set(message, (converted = toHfChatMessage(message)));
    return converted;
  };

  return {
    render(request) {
      const system = systemTextOf(request.system);
      const trajectory = request.tail === undefined ? request.messages.map(hfOf) : [...request.messages.map(hfOf), tailOf(request.tail)];
      // Indices as the template sees them: the system prompt, when there is one, is message 0.
      const offset = system === "" ? 0 : 1;
      const lastQuery = lastQueryIndex([...(system === "" ? [] : [{ role: "system", content: system } as HfChatMessage]), ...trajectory]);
      const pieces = [headerOf(system, request.tools)];
      trajectory.forEach((message, position) => {
        const index = position + offset;
        if (message.role === "assistant") {
          pieces.push(assistantPiece(message, index <= lastQuery ? "history" : position === trajectory.length - 1 ? "last" : "current"));
        } else if (message.role === "tool") {
          const opens = position === 0 || trajectory[position - 1]!.role !== "tool";
          const closes = position === trajectory.length - 1 || trajectory[position + 1]!.role !== "tool";
          pieces.push(`${opens ? "<|im_start|>user" : ""}\n<tool_response>\n${message.content}\n</tool_response>${closes ? "<|im_end|>\n" : ""}`);
        } else {
          pieces.push(`<|im_start|>${message.role}\n${message.content}<|im_end|>\n`);
        }
      });
      pieces.push(generationPrompt);
      return pieces.join("");
    },
  };
}

function tailOf(tail: UserMessage): HfChatMessage {
  return { role: "user", content: tail.content };
}

function between(text: string, before: string, after: string): string {
  if (!text.startsWith(before) || !text.endsWith(after)) {
    throw new CtxkitError("config_invalid", "A Qwen3 template probe did not render as expected; render these requests with renderModelRequest instead.");
  }
  return text.slice(before.length, text.length - after.length);
}
