import type { ModelResponse, ProviderEvent } from "../providers/provider.js";
import { safeParseJson } from "../providers/shared/canonical-json.js";
import type { AgentEvent } from "../types/index.js";

type BlockKind = "text" | "thinking" | "tool_call";

interface OpenBlock {
  kind: BlockKind;
  index: number;
  content: string;
  id: string;
  name: string;
}

type BlockEvent = Extract<AgentEvent, { type: `${"text" | "thinking" | "tool_call"}_${"start" | "delta" | "end"}` }>;

export interface ContentBlockTracker {
  /** The agent events one provider event produces (none for `start`, `done` and `error`). */
  apply(event: ProviderEvent): BlockEvent[];
  /** Ends every block still open, taking tool-call arguments from the final response. */
  finish(response: ModelResponse): BlockEvent[];
}

/**
 * Turns a provider's block events into the agent's start / delta / end triples. Providers that give
 * block indexes keep them; a provider that only sends deltas without `index` gets a new block
 * whenever the kind changes. An index already taken by a block of another kind (a provider that
 * numbers tool calls from 0 after a text block) is moved to the next free position.
 */
export function createContentBlockTracker(turn: number): ContentBlockTracker {
  const open = new Map<number, OpenBlock>();
  const assigned = new Map<string, number>();
  const used = new Set<number>();
  const started = new Set<string>();
  let unindexed: OpenBlock | undefined;

  const indexFor = (kind: BlockKind, providerIndex: number): number => {
    const key = `${kind}:${providerIndex}`;
    const known = assigned.get(key);
    if (known !== undefined) return known;
    let index = providerIndex;
    if (used.has(index)) index = Math.max(...used) + 1;
    assigned.set(key, index);
    used.add(index);
    return index;
  };

  const start = (kind: BlockKind, index: number, id = "", name = ""): BlockEvent[] => {
    const block: OpenBlock = { kind, index, content: "", id, name };
    open.set(index, block);
    if (kind === "tool_call") started.add(id);
    if (kind === "tool_call") return [{ type: "tool_call_start", turn, index, id, name }];
    return [{ type: `${kind}_start`, turn, index }];
  };

  const end = (block: OpenBlock, argumentsText?: string): BlockEvent[] => {
    open.delete(block.index);
    if (unindexed === block) unindexed = undefined;
    if (block.kind === "text") return [{ type: "text_end", turn, index: block.index, text: block.content }];
    if (block.kind === "thinking") return [{ type: "thinking_end", turn, index: block.index, thinking: block.content }];
    const text = argumentsText ?? block.content;
    const parsed = text.trim() === "" ? { success: true as const, value: {} } : safeParseJson(text);
    return [{ type: "tool_call_end", turn, index: block.index, id: block.id, name: block.name, argumentsText: text, arguments: parsed.success ? parsed.value : undefined }];
  };

  const delta = (kind: "text" | "thinking", providerIndex: number | undefined, text: string): BlockEvent[] => {
    const events: BlockEvent[] = [];
    let block: OpenBlock | undefined;
    if (providerIndex === undefined) {
      if (unindexed?.kind !== kind) {
        if (unindexed) events.push(...end(unindexed));
        const index = used.size === 0 ? 0 : Math.max(...used) + 1;
        used.add(index);
        events.push(...start(kind, index));
        unindexed = open.get(index);
      }
      block = unindexed;
    } else {
      const index = indexFor(kind, providerIndex);
      if (!open.has(index)) events.push(...start(kind, index));
      block = open.get(index);
    }
    if (block === undefined) return events;
    block.content += text;
    events.push({ type: `${kind}_delta`, turn, index: block.index, delta: text });
    return events;
  };

  return {
    apply(event) {
      switch (event.type) {
        case "text_start":
        case "thinking_start": {
          const kind = event.type === "text_start" ? "text" : "thinking";
          const index = indexFor(kind, event.index);
          return open.has(index) ? [] : start(kind, index);
        }
        case "text_delta":
          return delta("text", event.index, event.delta);
        case "thinking_delta":
          return delta("thinking", event.index, event.delta);
        case "text_end":
        case "thinking_end":
        case "tool_call_end": {
          const kind = event.type === "text_end" ? "text" : event.type === "thinking_end" ? "thinking" : "tool_call";
          const block = open.get(indexFor(kind, event.index));
          if (block === undefined) return [];
          return end(block, event.type === "tool_call_end" ? event.argumentsText : undefined);
        }
        case "tool_call_start": {
          const index = indexFor("tool_call", event.index);
          return open.has(index) ? [] : start("tool_call", index, event.id, event.name);
        }
        case "tool_call_delta": {
          const block = open.get(indexFor("tool_call", event.index));
          if (block === undefined) return [];
          block.content += event.delta;
          return [{ type: "tool_call_delta", turn, index: block.index, id: block.id, delta: event.delta }];
        }
        default:
          return [];
      }
    },
    finish(response) {
      const events: BlockEvent[] = [];
      for (const block of [...open.values()].sort((left, right) => left.index - right.index)) {
        const final = block.kind === "tool_call" ? response.content.find((part) => part.type === "tool_call" && part.id === block.id) : undefined;
        events.push(...end(block, final?.type === "tool_call" ? final.argumentsText : undefined));
      }
      // A provider that streamed no events for a tool call (only `done`) still shows it to consumers.
      for (const [position, part] of response.content.entries()) {
        if (part.type !== "tool_call" || started.has(part.id)) continue;
        const index = used.has(position) ? Math.max(...used) + 1 : position;
        used.add(index);
        events.push(...start("tool_call", index, part.id, part.name));
        const block = open.get(index);
        if (block) events.push(...end(block, part.argumentsText));
      }
      return events;
    },
  };
}
