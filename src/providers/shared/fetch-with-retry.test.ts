import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../../testing/openai-model-server.js";
import { createAnthropic } from "../anthropic/create-anthropic.js";
import { createOpenAICompatible } from "../openai-compatible/create-openai-compatible.js";
import { request as openAIRequest } from "../openai-compatible/test-support/request-fixtures.js";
import { startLoopbackServer, type LoopbackServer } from "../../testing/loopback-server.js";

let openAIServer: OpenAIModelServer | undefined;
let loopback: LoopbackServer | undefined;
afterEach(async () => {
  await openAIServer?.close();
  await loopback?.close();
  openAIServer = loopback = undefined;
});

async function drain(events: AsyncIterable<unknown>): Promise<void> {
  for await (const _event of events);
}

// A run's signal serves every model call. A hook left on it per call made Node warn
// "MaxListenersExceededWarning: 11 abort listeners" after ten calls of a normal CLI run.
describe("the caller's abort signal across calls", () => {
  it("carries no listener left over from finished OpenAI-compatible calls", async () => {
    openAIServer = await startOpenAIModelServer(Array.from({ length: 12 }, (_, index) => `answer ${index}`));
    const provider = createOpenAICompatible({ baseURL: openAIServer.baseURL, model: "m", apiKey: "k" });
    const signal = new AbortController().signal;
    for (let call = 0; call < 12; call++) await drain(provider.stream(openAIRequest(), signal));
    expect(openAIServer.requests).toHaveLength(12);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("carries no listener left over from finished or failed Anthropic calls", async () => {
    const events = [
      { type: "message_start", message: { id: "m", type: "message", role: "assistant", model: "claude", content: [], stop_reason: null, usage: { input_tokens: 3, output_tokens: 0 } } },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hi" } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } },
      { type: "message_stop" },
    ];
    let call = 0;
    loopback = await startLoopbackServer(() =>
      call++ % 2 === 0
        ? { status: 200, headers: { "content-type": "text/event-stream" }, body: events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join("") }
        : { status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "bad" } }) },
    );
    const provider = createAnthropic({ baseURL: loopback.url, model: "claude-sonnet-4-5", apiKey: "k" });
    const signal = new AbortController().signal;
    for (let index = 0; index < 12; index++) await drain(provider.stream(openAIRequest(), signal));
    expect(call).toBe(12);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });
});

// A 429 asking for an hour was waited for the cap (60 s by default), retried, refused again, and
// reported without the hour: two wasted minutes and no word of how long to wait.
describe("a retry-after past the retry cap", () => {
  const rateLimited = (retryAfter: string) => ({
    status: 429,
    headers: { "content-type": "application/json", "retry-after": retryAfter },
    body: JSON.stringify({ error: { message: "Rate limit reached for requests", type: "requests", code: "rate_limit_exceeded" } }),
  });

  it.each([
    ["seconds", "3600", "3,600 s"],
    ["an HTTP date", new Date(Date.now() + 7_200_000).toUTCString(), "7,"],
  ])("fails at once with the server's wait (%s), without retrying", async (_kind, retryAfter, said) => {
    loopback = await startLoopbackServer([rateLimited(retryAfter)]);
    const provider = createOpenAICompatible({ baseURL: `${loopback.url}/v1`, model: "m", apiKey: "k", env: {}, retry: { maxRetries: 2, maxDelayMs: 5_000 } });
    const events: unknown[] = [];
    for await (const event of provider.stream(openAIRequest())) events.push(event);
    expect(loopback.requests).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "error", error: { code: "provider_http_error", status: 429, isRetryable: true } });
    const message = (events.at(-1) as { error: Error }).error.message;
    expect(message).toContain(`The server asks to wait ${said}`);
    expect(message).toContain("longer than ctxkit waits between retries (5 s, the provider's retry.maxDelayMs), so the call was not retried.");
  });

  it("still waits for and retries a retry-after within the cap", async () => {
    let call = 0;
    loopback = await startLoopbackServer(() => (call++ === 0 ? rateLimited("0") : { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }] }) }));
    const provider = createOpenAICompatible({ baseURL: `${loopback.url}/v1`, model: "m", apiKey: "k", env: {}, stream: false, retry: { maxRetries: 2, maxDelayMs: 5_000 } });
    const events: unknown[] = [];
    for await (const event of provider.stream(openAIRequest())) events.push(event);
    expect(loopback.requests).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: "done" });
  });
});
