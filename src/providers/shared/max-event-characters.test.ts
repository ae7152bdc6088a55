import { afterEach, describe, expect, it } from "vitest";
import { createAnthropic } from "../anthropic/create-anthropic.js";
import { request } from "../anthropic/test-support/fixtures.js";
import { createOpenAICompatible } from "../openai-compatible/create-openai-compatible.js";
import { createOpenAIResponses } from "../openai-responses/create-openai-responses.js";
import type { Provider } from "../provider.js";
import { startLoopbackServer, type LoopbackServer } from "../../testing/loopback-server.js";
import type { ProviderEvent } from "../provider.js";

// Issue 30, item 2: one event is capped (64 Mi characters by default), and the error tells the
// user to raise `maxEventCharacters`: each streaming provider takes it as an option.
let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const providers: Array<[string, (baseURL: string, maxEventCharacters?: number) => Provider]> = [
  ["openai-compatible", (baseURL, maxEventCharacters) => createOpenAICompatible({ vendor: "vllm", model: "m", baseURL, apiKey: "k", retry: { maxRetries: 0 }, ...(maxEventCharacters === undefined ? {} : { maxEventCharacters }) })],
  ["anthropic", (baseURL, maxEventCharacters) => createAnthropic({ model: "m", apiKey: "k", baseURL, retry: { maxRetries: 0 }, ...(maxEventCharacters === undefined ? {} : { maxEventCharacters }) })],
  ["openai-responses", (baseURL, maxEventCharacters) => createOpenAIResponses({ model: "m", apiKey: "k", baseURL, retry: { maxRetries: 0 }, ...(maxEventCharacters === undefined ? {} : { maxEventCharacters }) })],
];

/** One 5,000-character event (its data is not even a valid chunk: the cap acts before parsing). */
const bigEvent = `data: {"delta":"${"y".repeat(5_000)}"}\n\n`;

async function lastEvent(provider: Provider): Promise<ProviderEvent | undefined> {
  let last: ProviderEvent | undefined;
  for await (const event of provider.stream(request({ tools: [] }))) last = event;
  return last;
}

describe.each(providers)("%s: maxEventCharacters", (_name, create) => {
  it("refuses an event over the option's cap with provider_event_too_large, naming the option", async () => {
    server = await startLoopbackServer(() => ({ status: 200, headers: { "content-type": "text/event-stream" }, chunks: [bigEvent] }));
    const last = await lastEvent(create(`${server.url}/v1`, 1_000));
    expect(last?.type).toBe("error");
    const error = (last as Extract<ProviderEvent, { type: "error" }>).error;
    expect(error.code).toBe("provider_event_too_large");
    expect(error.message).toContain("more than 1000 characters");
    expect(error.message).toContain("`maxEventCharacters` option");
  });

  it("lets the same event through when the option is raised (the default, 64 Mi, also does)", async () => {
    server = await startLoopbackServer(() => ({ status: 200, headers: { "content-type": "text/event-stream" }, chunks: [bigEvent] }));
    for (const cap of [10_000, undefined]) {
      const last = await lastEvent(create(`${server.url}/v1`, cap));
      // The event is passed on (and then fails as the vendor's chunk it is not), never refused for its size.
      if (last?.type === "error") expect(last.error.code).not.toBe("provider_event_too_large");
    }
  });

  it("rejects a cap that is not a whole number above 0 when the provider is created", () => {
    expect(() => create("http://127.0.0.1:9/v1", 0)).toThrow(/maxEventCharacters` must be a whole number of characters above 0/);
    expect(() => create("http://127.0.0.1:9/v1", 1.5)).toThrow(/maxEventCharacters/);
  });
});
