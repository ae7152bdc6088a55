import {
  getQwen3ChatTemplate,
  lastQueryIndex,
  renderChatTemplate,
  systemTextOf,
  toHfChatMessage,
  type HfChatMessage,
  type TokenCounter,
} from "../../tokens/index.js";
import { CtxkitError, type Message, type ModelRequest, type ToolDefinition } from "../../types/index.js";
import { compositionPartOf, type CompositionPart } from "./composition.js";
import type { PromptRenderer, PromptSegment, RenderedPrompt, SegmentOwner } from "./rendered-prompt.js";

/** A message's rendering in one context, interned so equal texts share one id. */
interface Block {
  id: number;
  text: string;
}

const query: HfChatMessage = { role: "user", content: "q" };
const queryText = "<|im_start|>user\nq<|im_end|>\n";
const toolProbe: HfChatMessage = { role: "tool", content: "r" };
const toolProbeText = "<|im_start|>user\n<tool_response>\nr\n</tool_response><|im_end|>\n";
const generationPrompt = "<|im_start|>assistant\n";

/**
 * Renders requests with Qwen3's chat template incrementally: each message's rendering is computed
 * once per context it can appear in, and each segment (from one `<|im_start|>` to the next) is
 * tokenized once, so a call costs O(new messages) in rendering and tokenization instead of
 * O(context). The template's output is a concatenation of per-message pieces whose only context is:
 * - an assistant turn: whether it comes after the last real user query and whether it is the last
 *   message (which decides if its `<think>` block is shown); those pieces are rendered by the real
 *   template on a three-message probe, so reasoning extraction and `tojson` are the template's own;
 * - a tool result: whether the previous / next message is a tool result (they share one user turn);
 * - system (first message) and tools: the header, rendered by the real template.
 * Callers verify the result against a full render (`renderModelRequest`) and fall back to it on a
 * difference; the tests compare both on the corpus.
 */
export function createQwen3PromptRenderer(counter: TokenCounter): PromptRenderer {
  if (counter.encode === undefined || counter.name !== "qwen3") {
    throw new CtxkitError("config_invalid", "The incremental Qwen3 renderer needs the exact Qwen3 tokenizer (getTokenCounter('qwen3')).");
  }
  const encode: (text: string) => number[] = counter.encode.bind(counter);
  const template = getQwen3ChatTemplate();
  const interned = new Map<string, number>();
  const blocks = new WeakMap<object, Map<string, Block>>();
  const headers = new Map<string, { block: Block; systemTokens: number }>();
  const toolsKeys = new WeakMap<readonly ToolDefinition[], string>();
  const segmentCache = new Map<string, PromptSegment>();
  let lookups = 0;

  const intern = (text: string): Block => {
    let id = interned.get(text);
    if (id === undefined) {
      id = interned.size;
      interned.set(text, id);
    }
    return { id, text };
  };
  const blockOf = (owner: object, variant: string, build: () => string): Block => {
    let variants = blocks.get(owner);
    if (variants === undefined) blocks.set(owner, (variants = new Map()));
    let block = variants.get(variant);
    if (block === undefined) variants.set(variant, (block = intern(build())));
    return block;
  };
  const render = (messages: HfChatMessage[], tools?: readonly ToolDefinition[]) => renderChatTemplate({ template, messages, tools, addGenerationPrompt: false });
  const between = (text: string, before: string, after: string): string => {
    if (!text.startsWith(before) || !text.endsWith(after)) throw new CtxkitError("config_invalid", "Qwen3 template probe did not render as expected.");
    return text.slice(before.length, text.length - after.length);
  };
  const headerOf = (system: string | undefined, tools: readonly ToolDefinition[]) => {
    let toolsKey = toolsKeys.get(tools);
    if (toolsKey === undefined) toolsKeys.set(tools, (toolsKey = JSON.stringify(tools)));
    const key = `${system ?? "\u0000"}\u0001${toolsKey}`;
    let header = headers.get(key);
    if (header === undefined) {
      const systemMessages: HfChatMessage[] = system === undefined ? [] : [{ role: "system", content: system }];
      const block = intern(between(render([...systemMessages, query], tools), "", queryText));
      const systemOnly = system === undefined ? "" : between(render([...systemMessages, query]), "", queryText);
      header = { block, systemTokens: tools.length === 0 ? encodedLength(block.text) : encodedLength(systemOnly) };
      headers.set(key, header);
    }
    return header;
  };
  const encodedLength = (text: string) => (text === "" ? 0 : encode(text).length);

  return {
    name: "qwen3",
    render(request) {
      const { hf, sources } = toHfList(request);
      const systemText = hf[0]?.role === "system" ? hf[0].content : undefined;
      const start = systemText === undefined ? 0 : 1;
      const lastQuery = lastQueryIndex(hf);
      const pieces: Array<{ block: Block; owner: SegmentOwner }> = [];
      const header = headerOf(systemText, request.tools);
      if (header.block.text !== "") pieces.push({ block: header.block, owner: { part: "header" } });
      for (let index = start; index < hf.length; index++) {
        const message = hf[index]!;
        const source = sources[index]!;
        const owner: SegmentOwner = { part: source.part, messageIndex: source.messageIndex };
        if (message.role === "assistant") {
          const variant = index <= lastQuery ? "history" : index === hf.length - 1 ? "last" : "current";
          pieces.push({ block: blockOf(source.object, variant, () => renderAssistant(message, variant)), owner });
        } else if (message.role === "tool") {
          const opens = index === 0 || hf[index - 1]!.role !== "tool";
          const closes = index === hf.length - 1 || hf[index + 1]!.role !== "tool";
          const text = () => `${opens ? "<|im_start|>user" : ""}\n<tool_response>\n${message.content}\n</tool_response>${closes ? "<|im_end|>\n" : ""}`;
          pieces.push({ block: blockOf(source.object, `${opens}${closes}`, text), owner });
        } else {
          pieces.push({ block: blockOf(source.object, message.role, () => `<|im_start|>${message.role}\n${message.content}<|im_end|>\n`), owner });
        }
      }
      pieces.push({ block: intern(generationPrompt), owner: { part: "generation_prompt" } });
      return assemble(pieces, header.systemTokens);
    },
    get cachedSegments() {
      return segmentCache.size;
    },
    get segmentLookups() {
      return lookups;
    },
  };

  function renderAssistant(message: HfChatMessage, variant: string): string {
    if (variant === "history") return between(render([message, query]), "", queryText);
    if (variant === "last") return between(render([query, message]), queryText, "");
    return between(render([query, message, toolProbe]), queryText, toolProbeText);
  }

  /** Joins pieces into segments at each `<|im_start|>`; a tool result that continues a user turn joins the previous one. */
  function assemble(pieces: Array<{ block: Block; owner: SegmentOwner }>, systemTokens: number): RenderedPrompt {
    const segments: PromptSegment[] = [];
    const owners: SegmentOwner[] = [];
    let total = 0;
    let group: Array<{ block: Block; owner: SegmentOwner }> = [];
    const flush = () => {
      if (group.length === 0) return;
      lookups++;
      const key = group.map((piece) => piece.block.id).join(",");
      let segment = segmentCache.get(key);
      if (segment === undefined) {
        const text = group.map((piece) => piece.block.text).join("");
        segment = { text, tokens: encode(text) };
        segmentCache.set(key, segment);
      }
      segments.push(segment);
      owners.push(group[0]!.owner);
      total += segment.tokens.length;
      group = [];
    };
    for (const piece of pieces) {
      if (piece.block.text.startsWith("<|im_start|>")) flush();
      group.push(piece);
    }
    flush();
    return { segments, owners, total, systemTokens };
  }
}

interface SourceOf {
  object: object;
  part: CompositionPart;
  messageIndex?: number;
}

const hfMessages = new WeakMap<Message, HfChatMessage>();

/** The request as template messages (as `toHfChatMessages` builds them), each with the object it came from. */
function toHfList(request: ModelRequest): { hf: HfChatMessage[]; sources: SourceOf[] } {
  const hf: HfChatMessage[] = [];
  const sources: SourceOf[] = [];
  const systemText = systemTextOf(request.system);
  if (systemText !== "") {
    hf.push({ role: "system", content: systemText });
    sources.push({ object: request.system, part: "system" });
  }
  const add = (message: Message, messageIndex: number, part: CompositionPart) => {
    let converted = hfMessages.get(message);
    if (converted === undefined) hfMessages.set(message, (converted = toHfChatMessage(message)));
    hf.push(converted);
    sources.push({ object: message, part, messageIndex });
  };
  request.messages.forEach((message, index) => add(message, index, compositionPartOf(message)));
  if (request.tail !== undefined) add(request.tail, request.messages.length, "harness");
  return { hf, sources };
}
