import { createStablePrefix } from "../../context/stable-prefix.js";
import { slidingWindowStart } from "../replay/comparators/sliding-window-policy.js";
import type { Message, ModelRequest, ToolDefinition, UserMessage } from "../../types/index.js";
import { createUniformSource } from "../../providers/llama/gguf/encode-random-weights.js";

/** A recorded conversation: the system prompt, the tools, and every message after the system prompt. */
export interface Dialogue {
  id: string;
  system: string;
  tools: ToolDefinition[];
  messages: Message[];
}

/**
 * The context-management modes of the seed's experiment 2-3: the correct layout and five common
 * mistakes. Each rebuilds, for every model call of a recorded dialogue, the request that a harness
 * using that mode would have sent.
 */
export const contextModes = ["correct", "dynamic_system", "dynamic_profile", "shuffled_tools", "sliding_window", "text_format"] as const;
export type ContextMode = (typeof contextModes)[number];

/** Where the prefix guard must find each mistake. */
export const expectedBreakLayer: Record<ContextMode, string | undefined> = {
  correct: undefined,
  dynamic_system: "system_static",
  dynamic_profile: "message",
  shuffled_tools: "tools",
  sliding_window: "message",
  text_format: "message",
};

export const slidingWindowSize = 6;

/** The requests of every model call (one per assistant message) under a mode. Pure and deterministic. */
export function buildModeRequests(dialogue: Dialogue, mode: ContextMode): ModelRequest[] {
  const prefix = createStablePrefix(dialogue.system, dialogue.tools);
  const requests: ModelRequest[] = [];
  let call = 0;
  dialogue.messages.forEach((message, index) => {
    if (message.role !== "assistant") return;
    requests.push(buildRequest(mode, prefix.system.staticText, prefix.tools, dialogue.messages.slice(0, index), call++, dialogue.id));
  });
  return requests;
}

function buildRequest(mode: ContextMode, system: string, tools: readonly ToolDefinition[], history: Message[], call: number, dialogueId: string): ModelRequest {
  const base = { cacheBreakpoints: [], settings: {} };
  switch (mode) {
    case "correct":
      return { ...base, system: { staticText: system }, tools: [...tools], messages: history };
    case "dynamic_system":
      // The timestamp story: "Current time" at the top of the system prompt, new on every call.
      return { ...base, system: { staticText: `Current time: ${timestampOf(call)}\n\n${system}` }, tools: [...tools], messages: history };
    case "dynamic_profile":
      return { ...base, system: { staticText: system }, tools: [...tools], messages: [profileMessage(call), ...history] };
    case "shuffled_tools":
      // "Most used first" reordering, modelled as a different deterministic order on every call.
      return { ...base, system: { staticText: system }, tools: shuffled(tools, `${dialogueId}:${call}`), messages: history };
    case "sliding_window":
      return { ...base, system: { staticText: system }, tools: [...tools], messages: lastMessagesKeepingPairs(history, slidingWindowSize) };
    case "text_format":
      return { ...base, system: { staticText: system }, tools: [...tools], messages: history.length === 0 ? [] : [flattened(history)] };
  }
}

function timestampOf(call: number): string {
  return new Date(Date.parse("2025-09-14T10:30:45Z") + call * 17_000).toISOString().replace("T", " ").slice(0, 19);
}

function profileMessage(call: number): UserMessage {
  return {
    role: "user",
    content: `<user_profile>remaining_api_calls: ${500 - call}; account_balance: $${(1234.5 - call * 3.25).toFixed(2)}; last_active: ${timestampOf(call)}</user_profile>`,
    meta: { id: `profile-${call}`, origin: "harness", createdAt: "" },
  };
}

/** The last `size` messages, moved past tool results whose call fell out of the window (as `ctxkit replay`'s sliding window). */
export function lastMessagesKeepingPairs(history: Message[], size: number): Message[] {
  return history.slice(slidingWindowStart(history, size));
}

/** The whole history as one "USER: … ASSISTANT: …" text message — structure flattened away. */
function flattened(history: Message[]): UserMessage {
  const lines = history.map((message) => {
    switch (message.role) {
      case "user":
        return `USER: ${message.content}`;
      case "system":
        return `SYSTEM: ${message.content}`;
      case "tool":
        return `TOOL (${message.toolName}): ${message.content}`;
      case "assistant":
        return `ASSISTANT: ${message.content
          .map((part) => (part.type === "text" ? part.text : part.type === "tool_call" ? `[call ${part.name} ${part.argumentsText}]` : ""))
          .join(" ")}`;
    }
  });
  return { role: "user", content: lines.join("\n"), meta: { id: "flattened", origin: "harness", createdAt: "" } };
}

/** A seeded Fisher–Yates shuffle (mulberry32 over a string hash), so runs are reproducible. */
function shuffled<T>(items: readonly T[], seed: string): T[] {
  const random = createUniformSource([...seed].reduce((hash, character) => Math.imul(hash ^ character.charCodeAt(0), 16777619) >>> 0, 2166136261));
  const result = [...items];
  for (let index = result.length - 1; index > 0; index--) {
    const swap = Math.floor(random() * (index + 1));
    [result[index], result[swap]] = [result[swap]!, result[index]!];
  }
  return result;
}
