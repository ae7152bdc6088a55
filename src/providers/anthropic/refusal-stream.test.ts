import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../../loop/create-agent.js";
import { createTestClock, createTestIds } from "../../loop/test-support.js";
import { startLoopbackServer, type LoopbackServer } from "../../testing/loopback-server.js";
import type { AgentEvent } from "../../types/index.js";
import { createAnthropic } from "./index.js";

// A recorded Anthropic refusal: message_start, a ping, then message_delta with stop_reason "refusal"
// and no content block at all. vercel/ai packages/anthropic/src/__fixtures__/anthropic-refusal.chunks.txt
// (commit d7e3880f), one event's data per line, copied as recorded.
const recorded = readFileSync(new URL("./test-support/anthropic-refusal.chunks.txt", import.meta.url), "utf8").split("\n").filter((line) => line.trim() !== "");
const chunks = recorded.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`);

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("a recorded Anthropic refusal", () => {
  it("ends the run with an empty answer and says the provider stopped it (it ended as an answer that said nothing)", async () => {
    server = await startLoopbackServer([{ headers: { "content-type": "text/event-stream" }, chunks }]);
    const provider = createAnthropic({ baseURL: server.url, model: "claude-fable-5", apiKey: "k" });
    const agent = createAgent({ provider, system: "s", tools: [], runtime: { clock: createTestClock(), createId: createTestIds() } });
    const events: AgentEvent[] = [];
    for await (const event of agent.run("?")) events.push(event);
    const turnEnd = events.find((event) => event.type === "turn_end");
    expect(turnEnd?.type === "turn_end" && turnEnd.message).toMatchObject({ content: [], stopReason: "content_filter", rawStopReason: "refusal" });
    expect(events).toContainEqual(expect.objectContaining({ type: "warning", code: "content_filtered", message: expect.stringContaining("(refusal: a refusal or a content filter)") }));
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer", finalText: "", usage: { inputTokens: 18, outputTokens: 5 } });
  });
});
