import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropic } from "../anthropic/create-anthropic.js";
import { createOpenAICompatible } from "../openai-compatible/create-openai-compatible.js";
import type { ProviderEvent } from "../provider.js";
import { request as openAIRequest } from "../openai-compatible/test-support/request-fixtures.js";
import { ConfigError, ProviderError } from "../../types/index.js";
import { firstByteTimeoutError, idleTimeoutError, resolveStreamTimeouts } from "./stream-timeouts.js";

// Real loopback servers that misbehave in time, which the scripted loopback server cannot: one never
// answers, one stalls after the headers. The trials that found it: undici's defaults held such calls
// 300 s and 907 s.
let server: Server | undefined;
let requests = 0;
afterEach(async () => {
  if (server !== undefined) {
    server.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
  }
  server = undefined;
  requests = 0;
});

async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  server = createServer((request, response) => {
    requests += 1;
    handler(request, response);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const collected: ProviderEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

const request = openAIRequest();

function lastError(events: ProviderEvent[]) {
  const last = events.at(-1);
  if (last?.type !== "error") throw new Error(`expected an error event, got ${JSON.stringify(last)}`);
  return last;
}

describe("provider timeouts", () => {
  it("ends a call to a server that never answers with a retryable first-byte timeout, after retrying", async () => {
    const baseURL = await serve(() => undefined);
    const provider = createOpenAICompatible({
      model: "m",
      baseURL,
      apiKey: "k",
      env: {},
      retry: { maxRetries: 1, initialDelayMs: 1 },
      timeouts: { firstByteMs: 200 },
    });
    const started = performance.now();
    const failure = lastError(await collect(provider.stream(request)));
    // Generous proof of "no hang": without the limit this took 907 s.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(failure.error.code).toBe("provider_timeout");
    expect(failure.error.isRetryable).toBe(true);
    expect(failure.error.message).toContain("within 200 ms (the first-byte timeout)");
    expect(failure.error.message).toContain("--request-timeout");
    expect(requests).toBe(2);
  });

  it("ends a stream that stalls after the headers with an idle timeout, keeping the partial text", async () => {
    const baseURL = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: "Half" }, finish_reason: null }] })}\n\n`);
    });
    const provider = createOpenAICompatible({ model: "m", baseURL, apiKey: "k", env: {}, timeouts: { idleMs: 200 } });
    const started = performance.now();
    const failure = lastError(await collect(provider.stream(request)));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(failure.error.code).toBe("provider_timeout");
    expect(failure.error.message).toContain("sent nothing for 200 ms in the middle of its response (the idle-stream timeout)");
    expect(failure.partial.content).toEqual([{ type: "text", text: "Half" }]);
  });

  it("applies the idle timeout to Anthropic streams too", async () => {
    const baseURL = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(`event: message_start\ndata: ${JSON.stringify({ type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 0 } } })}\n\n`);
    });
    const provider = createAnthropic({ model: "claude-test", apiKey: "k", baseURL, timeouts: { idleMs: 200 } });
    const failure = lastError(await collect(provider.stream(request)));
    expect(failure.error.code).toBe("provider_timeout");
    expect(failure.error.message).toContain("Anthropic sent nothing for 200 ms");
  });

  // A proxy's 502 or a 429 whose body never comes: the status is all that counts, and it was held
  // until undici's 300 s body timeout (the caller's abort was unhooked before the body was read).
  it("cuts an error response whose body stalls after the headers at the idle limit, keeping its status", async () => {
    const baseURL = await serve((_request, response) => {
      response.writeHead(502, { "content-type": "application/json" });
      response.write('{"error":');
    });
    const provider = createOpenAICompatible({ model: "m", baseURL, apiKey: "k", env: {}, retry: { maxRetries: 1, initialDelayMs: 1 }, timeouts: { idleMs: 200 } });
    const failure = lastError(await collect(provider.stream(request)));
    expect(failure.error).toMatchObject({ code: "provider_http_error", status: 502, isRetryable: true });
    expect(failure.error.message).toContain("answered 502: HTTP 502. The server failed; retry later.");
    expect(requests).toBe(2);
  });

  it("ends a call on the caller's abort while an error body stalls, with no idle limit", async () => {
    const baseURL = await serve((_request, response) => {
      response.writeHead(429, { "content-type": "application/json" });
      response.write('{"error":');
    });
    const provider = createOpenAICompatible({ model: "m", baseURL, apiKey: "k", env: {}, retry: { maxRetries: 0 }, timeouts: { idleMs: 0 } });
    const abort = new AbortController();
    const events = collect(provider.stream(request, abort.signal));
    await new Promise((resolve) => setTimeout(resolve, 200));
    abort.abort();
    expect(lastError(await events).error.code).toBe("aborted");
  });

  it("defaults to 60 s each, and rejects invalid limits before any I/O", () => {
    expect(resolveStreamTimeouts(undefined, "x")).toEqual({ firstByteMs: 60_000, idleMs: 60_000 });
    expect(() => createOpenAICompatible({ model: "m", apiKey: "k", env: {}, timeouts: { idleMs: -1 } })).toThrow("timeouts.idleMs must be");
  });
});

// A library user catching a family (`instanceof ConfigError`, `instanceof ProviderError`) must catch these too.
describe("timeout errors' classes", () => {
  it("a bad timeout option is a ConfigError, a timeout a retryable ProviderError", () => {
    expect(() => resolveStreamTimeouts({ firstByteMs: -1 }, "P")).toThrow(ConfigError);
    expect(() => resolveStreamTimeouts("soon", "P")).toThrow(ConfigError);
    for (const error of [firstByteTimeoutError("P", "http://x", 1000), idleTimeoutError("P", 1000)]) {
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: "provider_timeout", isRetryable: true });
    }
  });
});
