import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackServer, type LoopbackServer, type ScriptedHttpResponse } from "../../testing/loopback-server.js";
import { ContextOverflowError } from "../../types/index.js";
import { collect, jsonHeaders, request } from "../openai-compatible/test-support/request-fixtures.js";
import type { ProviderEvent } from "../provider.js";
import { createOpenAIResponses, type OpenAIResponsesSettings } from "./index.js";

// The answer turn of the recorded gpt-5.1-codex-max stream (fixtures/README.md), served as the API sends it.
const recorded = (await readFile(new URL("./fixtures/gpt-5.1-codex-max-reasoning-tool-loop.jsonl", import.meta.url), "utf8")).split("\n").filter((line) => line.trim() !== "");
const answerTurn = recorded.slice(recorded.map((line, index) => (line.startsWith('{"type":"response.created"') ? index : -1)).filter((index) => index >= 0).at(-1));
const sse = (lines: string[]): ScriptedHttpResponse => ({
  headers: { "content-type": "text/event-stream" },
  chunks: lines.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`),
});

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function providerFor(url: string, settings: Partial<OpenAIResponsesSettings> = {}) {
  return createOpenAIResponses({ model: "gpt-5.1-codex-max", apiKey: "sk-test", baseURL: url, retry: { initialDelayMs: 1, maxRetries: 2 }, ...settings });
}

function terminal(events: ProviderEvent[]): Extract<ProviderEvent, { type: "error" }> {
  expect(events.filter((event) => event.type === "error" || event.type === "done")).toHaveLength(1);
  const last = events.at(-1);
  if (last?.type !== "error") throw new Error(`expected a terminal error event, got ${JSON.stringify(last)}`);
  return last;
}

describe("the Responses provider's cache retention, overflow and retries", () => {
  it("sends prompt_cache_retention and declares the 24-hour lifetime it buys", async () => {
    server = await startLoopbackServer([sse(answerTurn)]);
    const provider = providerFor(server.url, { promptCacheRetention: "24h", promptCacheKey: "team-7" });
    expect(provider.cacheLifetimeMs).toBe(24 * 60 * 60_000);
    const events = await collect(provider.stream(request()));
    expect(events.at(-1)?.type).toBe("done");
    const body = JSON.parse(server.requests[0]!.body) as Record<string, unknown>;
    expect(body).toMatchObject({ prompt_cache_key: "team-7", prompt_cache_retention: "24h", store: false });
    expect(provider.serialize(request()).body).toBe(server.requests[0]!.body);
    expect(providerFor(server.url).cacheLifetimeMs).toBe(5 * 60_000);
    expect(() => providerFor(server!.url, { promptCacheRetention: "1h" as never })).toThrow(/promptCacheRetention must be "in-memory" or "24h"/);
  });

  it("retries a 429 after the server's retry-after-ms with the same body, then streams the recorded answer", async () => {
    server = await startLoopbackServer([
      { status: 429, headers: { ...jsonHeaders, "retry-after-ms": "10" }, body: JSON.stringify({ error: { message: "Rate limit reached for gpt-5.1-codex-max", type: "requests", param: null, code: "rate_limit_exceeded" } }) },
      sse(answerTurn),
    ]);
    const events = await collect(providerFor(server.url).stream(request()));
    expect(events.at(-1)?.type).toBe("done");
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body).toBe(server.requests[0]!.body);
  });

  it("reports an HTTP 400 context_length_exceeded as a ContextOverflowError without retrying", async () => {
    const vendorMessage = "Your input exceeds the context window of this model. Please adjust your input and try again.";
    server = await startLoopbackServer([
      { status: 400, headers: jsonHeaders, body: JSON.stringify({ error: { message: vendorMessage, type: "invalid_request_error", param: "input", code: "context_length_exceeded" } }) },
    ]);
    const error = terminal(await collect(providerFor(server.url).stream(request()))).error;
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect(error.code).toBe("context_overflow");
    expect(server.requests).toHaveLength(1);
  });

  it("reports an overflow the server sends mid-stream (response.failed) as a ContextOverflowError", async () => {
    const failed = [
      JSON.stringify({ type: "response.created", sequence_number: 0, response: { id: "resp_1", object: "response", status: "in_progress", output: [] } }),
      JSON.stringify({
        type: "response.failed",
        sequence_number: 1,
        response: { id: "resp_1", object: "response", status: "failed", output: [], error: { code: "context_length_exceeded", message: "Your input exceeds the context window of this model. Please adjust your input and try again." } },
      }),
    ];
    server = await startLoopbackServer([sse(failed)]);
    const error = terminal(await collect(providerFor(server.url).stream(request()))).error;
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect(server.requests).toHaveLength(1);
  });
});

describe("the Responses provider and a 200 answer that is not a stream", () => {
  it("names what it held (an error object sent with 200) instead of asking for a retry", async () => {
    server = await startLoopbackServer([{ status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: "The model `gpt-x` does not exist." } }) }]);
    const failure = terminal(await collect(providerFor(server.url).stream(request())));
    expect(failure.error.code).toBe("provider_response_invalid");
    expect(failure.error.message).toContain("it sent: The model `gpt-x` does not exist.");
    expect(server.requests).toHaveLength(1);
  });
});

