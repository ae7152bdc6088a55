import { afterEach, describe, expect, it } from "vitest";
import type { ContextPolicy } from "../context-policy.js";
import { createAgent } from "../../loop/create-agent.js";
import { collectRunEvents } from "../../loop/test-support/collect-run-events.js";
import { createTestClock, createTestIds } from "../../loop/test-support.js";
import { startLoopbackServer, type LoopbackServer, type RecordedRequest, type ScriptedHttpResponse } from "../../testing/loopback-server.js";
import { buildUsageLedger } from "../../session/usage-ledger.js";
import { createOpenAIResponses } from "../../providers/openai-responses/index.js";
import { createResponsesCompactPolicy } from "./responses-compact-policy.js";
import { documentedCompaction } from "../../providers/openai-responses/test-support/documented-compaction.js";

/** A text answer in the Responses streaming format (one SSE event per line, as the API sends them). */
function answer(id: string, text: string, inputTokens: number): ScriptedHttpResponse {
  const events = [
    { type: "response.created", response: { id, status: "in_progress", output: [] } },
    { type: "response.output_item.added", item: { id: `msg_${id}`, type: "message", status: "in_progress", content: [], role: "assistant" }, output_index: 0 },
    { type: "response.output_text.delta", output_index: 0, content_index: 0, item_id: `msg_${id}`, delta: text },
    { type: "response.output_item.done", item: { id: `msg_${id}`, type: "message", status: "completed", content: [{ type: "output_text", text }], role: "assistant" }, output_index: 0 },
    { type: "response.completed", response: { id, status: "completed", usage: { input_tokens: inputTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5 } } },
  ];
  return { headers: { "content-type": "text/event-stream" }, chunks: events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`) };
}

/** Serves `/responses/compact` with the documented object and `/responses` with the scripted answers in turn. */
function routes(answers: ScriptedHttpResponse[]): (request: RecordedRequest) => ScriptedHttpResponse {
  let served = 0;
  return (request) => (request.path === "/responses/compact" ? { headers: { "content-type": "application/json" }, body: documentedCompaction } : answers[served++]!);
}

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("on-demand compaction (/responses/compact)", () => {
  it("compacts when asked, declares the break, and sends the returned items back byte-exact", async () => {
    server = await startLoopbackServer(routes([answer("r1", "Here is the page.", 139), answer("r2", "Added a menu.", 60)]));
    const provider = createOpenAIResponses({ model: "gpt-5.1-codex-max", apiKey: "test", baseURL: server.url });
    const compact = createResponsesCompactPolicy({ provider });
    const agent = createAgent({ provider, system: "You build web pages.", tools: [], context: [compact], prefixGuard: { strict: true }, runtime: { clock: createTestClock(), createId: createTestIds() } });
    await collectRunEvents(agent, "Create a simple landing page for a dog petting cafe.");
    compact.requestCompaction();
    const events = await collectRunEvents(agent, "Add a menu.");
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });

    expect(server.requests.map((request) => request.path)).toEqual(["/responses", "/responses/compact", "/responses"]);
    const compactBody = JSON.parse(server.requests[1]!.body) as Record<string, unknown>;
    // The documented request: model, instructions and the trajectory as input (no stream, no tail).
    expect(Object.keys(compactBody)).toEqual(["model", "instructions", "input"]);
    expect(compactBody).toMatchObject({ model: "gpt-5.1-codex-max", instructions: "You build web pages." });
    expect((compactBody.input as Array<{ role?: string }>).map((item) => item.role)).toEqual(["user", "assistant", "user"]);

    expect(events.find((event) => event.type === "context_edit")).toMatchObject({ kind: "replace", start: 0, end: 3 });
    expect(events.find((event) => event.type === "cache_break")).toMatchObject({ declared: true, reason: expect.stringContaining("/responses/compact") });
    // The next call's input is exactly the returned output, item for item, in the server's bytes.
    const items = (JSON.parse(documentedCompaction) as { output: unknown[] }).output.map((item) => JSON.stringify(item));
    expect(server.requests[2]!.body).toContain(`"input":[${items.join(",")}`);
    expect(agent.messages[0]).toMatchObject({ role: "assistant", meta: { origin: "harness", derived: { kind: "summary", batch: 1 } } });
    expect(agent.messages).toHaveLength(2);
  });

  it("keeps the tail on the call after a compaction, though the compacted context ends with an assistant item", async () => {
    // The returned items (the user's turns among them) become one assistant message that replaces the
    // whole context: the call after it is a normal one, and its status bar still goes last.
    server = await startLoopbackServer(routes([answer("r1", "Here is the page.", 139), answer("r2", "Added a menu.", 60)]));
    const provider = createOpenAIResponses({ model: "gpt-5.1-codex-max", apiKey: "test", baseURL: server.url });
    const compact = createResponsesCompactPolicy({ provider });
    const statusBar: ContextPolicy = { name: "test-status", inherit: "share", tail: () => "[status] call in progress" };
    const agent = createAgent({ provider, system: "You build web pages.", tools: [], context: [compact, statusBar], prefixGuard: { strict: true }, runtime: { clock: createTestClock(), createId: createTestIds() } });
    await collectRunEvents(agent, "Create a simple landing page for a dog petting cafe.");
    compact.requestCompaction();
    await collectRunEvents(agent, "Add a menu.");
    expect(agent.messages[0]).toMatchObject({ role: "assistant", meta: { derived: { kind: "summary" } } });
    expect(server.requests.map((request) => request.path)).toEqual(["/responses", "/responses/compact", "/responses"]);
    const input = (JSON.parse(server.requests[2]!.body) as { input: Array<{ role?: string; content?: unknown }> }).input;
    expect(input.at(-1)).toMatchObject({ role: "user", content: "[status] call in progress" });
  });

  it("compacts past a client-side threshold once per usage report", async () => {
    server = await startLoopbackServer(routes([answer("r1", "One.", 200_000), answer("r2", "Two.", 1_000), answer("r3", "Three.", 1_100)]));
    const provider = createOpenAIResponses({ model: "gpt-5.2", apiKey: "test", baseURL: server.url });
    const agent = createAgent({ provider, system: "s", tools: [], context: [createResponsesCompactPolicy({ provider, compactAtInputTokens: 150_000 })], runtime: { clock: createTestClock(), createId: createTestIds() } });
    await collectRunEvents(agent, "first");
    await collectRunEvents(agent, "second");
    await collectRunEvents(agent, "third");
    expect(server.requests.map((request) => request.path)).toEqual(["/responses", "/responses/compact", "/responses", "/responses"]);
  });

  it("ends the run with a typed error when the compact endpoint answers something else", async () => {
    server = await startLoopbackServer((request) =>
      request.path === "/responses/compact" ? { headers: { "content-type": "application/json" }, body: '{"object":"response.compaction","output":[]}' } : answer("r1", "One.", 10),
    );
    const provider = createOpenAIResponses({ model: "gpt-5.2", apiKey: "test", baseURL: server.url });
    const compact = createResponsesCompactPolicy({ provider });
    const agent = createAgent({ provider, system: "s", tools: [], context: [compact], runtime: { clock: createTestClock(), createId: createTestIds() } });
    await collectRunEvents(agent, "first");
    compact.requestCompaction();
    const events = await collectRunEvents(agent, "second");
    const end = events.at(-1);
    expect(end).toMatchObject({ type: "run_end" });
    expect(JSON.stringify(events)).toContain("without a `compaction` item");
  });

  it("sends the items back in the server's own bytes and bills the compaction pass in the next call's usage", async () => {
    // The same documented object, written the way a server might: keys in another order, indented.
    // A parse and JSON.stringify would change these bytes; the encrypted item must go back as it came.
    const compactionItem = '{\n    "encrypted_content": "gAAAAABpM0Yj-...=",\n    "type": "compaction",\n    "id": "cmp_001"\n  }';
    const userItem = '{"role": "user", "type": "message", "id": "msg_000", "status": "completed", "content": [{"text": "Create a simple landing page for a dog petting cafe.", "type": "input_text"}]}';
    const spaced = `{\n  "id": "resp_001",\n  "object": "response.compaction",\n  "output": [\n  ${userItem},\n  ${compactionItem}\n  ],\n  "usage": {"input_tokens": 139, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 438, "output_tokens_details": {"reasoning_tokens": 64}, "total_tokens": 577}\n}`;
    const answers = [answer("r1", "Here is the page.", 139), answer("r2", "Added a menu.", 60)];
    let served = 0;
    server = await startLoopbackServer((request) => (request.path === "/responses/compact" ? { headers: { "content-type": "application/json" }, body: spaced } : answers[served++]!));
    const provider = createOpenAIResponses({ model: "gpt-5.1-codex-max", apiKey: "test", baseURL: server.url });
    const compact = createResponsesCompactPolicy({ provider });
    const agent = createAgent({ provider, system: "You build web pages.", tools: [], context: [compact], prefixGuard: { strict: true }, runtime: { clock: createTestClock(), createId: createTestIds() } });
    const first = await collectRunEvents(agent, "Create a simple landing page for a dog petting cafe.");
    compact.requestCompaction();
    const second = await collectRunEvents(agent, "Add a menu.");
    expect(second.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });
    expect(server.requests[2]!.body).toContain(`"input":[${userItem},${compactionItem}]`);

    // The pass's 139 input and 438 output tokens are in the call after it, and so in the ledger.
    const usages = [...first, ...second].flatMap((event) => (event.type === "usage" ? [event.usage] : []));
    expect(usages[1]).toMatchObject({ inputTokens: 60 + 139, outputTokens: 5 + 438, reasoningTokens: 64, serverContext: { compactionInputTokens: 139, compactionOutputTokens: 438, edits: [] } });
    const ledger = buildUsageLedger(usages.map((usage) => ({ promptTokens: usage.inputTokens, cachedTokens: usage.cachedInputTokens, cacheWriteTokens: usage.cacheWriteTokens, outputTokens: usage.outputTokens })));
    expect(ledger.totals).toMatchObject({ calls: 2, promptTokens: 139 + 60 + 139, outputTokens: 5 + 5 + 438 });
  });

  it("refuses a threshold that is not a positive number of tokens", () => {
    const provider = createOpenAIResponses({ model: "gpt-5.2", apiKey: "test" });
    expect(() => createResponsesCompactPolicy({ provider, compactAtInputTokens: 0 })).toThrow(/compactAtInputTokens/);
  });
});
