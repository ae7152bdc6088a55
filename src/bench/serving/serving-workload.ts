import type { TokenCounter } from "../../tokens/token-counter.js";
import type { ModelRequest } from "../../types/model-request.js";
import type { ToolDefinition } from "../../types/tool.js";

/** The calls experiment 2-1 compares, each sent right after the base request warmed the cache. */
export const servingVariants = ["kept", "status_tail", "first_token_changed", "tool_reordered", "status_in_system"] as const;
export type ServingVariant = (typeof servingVariants)[number];

export interface ServingWorkload {
  /** System prompt + tools + one user turn: the prefix every variant starts from. */
  base: ModelRequest;
  /** The variant of run `run`; each run's variants differ from every other run's, so no server cache holds them yet. */
  variant(kind: ServingVariant, run: number): ModelRequest;
}

const words = ("order refund booking passenger baggage fare cabin upgrade voucher segment flight airport policy agent " +
  "customer record confirm cancel change payment insurance membership gold silver regular delay transfer reservation " +
  "seat meal window aisle basic economy business compensation certificate identity verify document").split(" ");

/**
 * A request of about `prefixTokens` tokens (counted with `counter`): a system prompt of numbered
 * policy rules (pseudo-random words from `seed`, so sizes share no prefix), six tools, and a question.
 * `nonce` starts the system prompt so a server's cache holds nothing of it from an earlier run.
 */
export function buildServingWorkload(options: { prefixTokens: number; counter: TokenCounter; seed: number; nonce: string }): ServingWorkload {
  const tools = servingTools();
  const toolTokens = options.counter.count(JSON.stringify(tools));
  const rules = policyRules(Math.max(64, options.prefixTokens - toolTokens - 40), options.counter, options.seed);
  const system = `Session ${options.nonce}. You are an airline support agent. Follow these rules.\n${rules}`;
  const base = request(system, tools, "Which rule covers a cancelled flight?");
  return {
    base,
    variant(kind, run) {
      const question = `Question ${run + 1}: which rule covers case ${(run + 1) * 37}?`;
      const withQuestion = (from: ModelRequest): ModelRequest => ({ ...from, messages: [...from.messages, assistantNote(run), userMessage(question, `q${run}`)] });
      switch (kind) {
        case "kept":
          return withQuestion(base);
        case "status_tail":
          return { ...withQuestion(base), tail: userMessage(statusLine(run), `s${run}`) };
        case "first_token_changed":
          return withQuestion({ ...base, system: { staticText: `Revision ${run + 1}. ${system}` } });
        case "tool_reordered":
          return withQuestion({ ...base, tools: rotate(tools, run + 1) });
        case "status_in_system":
          return withQuestion({ ...base, system: { staticText: `${statusLine(run)}\n${system}` } });
      }
    },
  };
}

function request(system: string, tools: ToolDefinition[], question: string): ModelRequest {
  return { system: { staticText: system }, tools, messages: [userMessage(question, "q")], cacheBreakpoints: [], settings: {} };
}

function userMessage(content: string, id: string): ModelRequest["messages"][number] & { role: "user" } {
  return { role: "user", content, meta: { id, origin: "user", createdAt: "2026-01-01T00:00:00.000Z" } };
}

function assistantNote(run: number): ModelRequest["messages"][number] {
  return { role: "assistant", content: [{ type: "text", text: `Rule ${run + 3} covers it.` }], meta: { id: `a${run}`, origin: "model", createdAt: "2026-01-01T00:00:00.000Z" } };
}

function statusLine(run: number): string {
  return `[status] ${String(10 + run).padStart(2, "0")}:${String((run * 7) % 60).padStart(2, "0")}:05 UTC, tool calls so far: ${run * 3 + 1}`;
}

function rotate<T>(items: readonly T[], by: number): T[] {
  const shift = by % items.length || 1;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

function policyRules(targetTokens: number, counter: TokenCounter, seed: number): string {
  let state = seed >>> 0 || 1;
  const next = (): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state >>> 8;
  };
  const lines: string[] = [];
  let tokens = 0;
  for (let rule = 1; tokens < targetTokens; rule += 1) {
    const length = 8 + (next() % 12);
    const line = `Rule ${rule}: ${Array.from({ length }, () => words[next() % words.length]).join(" ")}.`;
    tokens += counter.count(`${line}\n`);
    lines.push(line);
  }
  return lines.join("\n");
}

function servingTools(): ToolDefinition[] {
  const tool = (name: string, description: string, properties: Record<string, unknown>): ToolDefinition => ({
    name,
    description,
    parameters: { type: "object", properties, required: Object.keys(properties) },
  });
  return [
    tool("get_reservation", "Look up a reservation by its id.", { reservation_id: { type: "string", description: "Six characters, e.g. ZFA04Y." } }),
    tool("get_user", "Look up a user profile.", { user_id: { type: "string" } }),
    tool("search_flights", "Direct flights between two airports on a date.", { origin: { type: "string" }, destination: { type: "string" }, date: { type: "string", description: "YYYY-MM-DD" } }),
    tool("cancel_reservation", "Cancel a whole reservation.", { reservation_id: { type: "string" } }),
    tool("update_baggage", "Change the number of checked bags.", { reservation_id: { type: "string" }, total_baggages: { type: "integer" } }),
    tool("transfer_to_human", "Hand the conversation to a human agent.", { summary: { type: "string" } }),
  ];
}
