import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAICompatible } from "../../providers/openai-compatible/index.js";
import { startOpenAIModelServer, type OpenAIModelServer } from "../../testing/openai-model-server.js";
import { runLiveKvCacheBench } from "./run-live-kv-cache-bench.js";
import { sampleDialogue } from "./test-support/sample-dialogue.js";

let server: OpenAIModelServer;
beforeAll(async () => {
  server = await startOpenAIModelServer(() => "ok");
});
afterAll(() => server.close());

describe("the live kv-cache benchmark", () => {
  it("streams every call with one output token and reports TTFT and the provider's cached tokens per mode", async () => {
    const provider = createOpenAICompatible({ model: "scripted", baseURL: server.baseURL, apiKey: "test" });
    const result = await runLiveKvCacheBench({ provider, dialogues: [sampleDialogue()], modes: ["correct", "dynamic_system"] });
    const [correct, dynamic] = result.modes;
    expect(correct).toMatchObject({ mode: "correct", dialogues: 1, errors: 0 });
    expect(correct!.calls).toBeGreaterThan(3);
    expect(correct!.ttftMs.samples).toBe(correct!.calls);
    expect(correct!.ttftMs.median).toBeGreaterThanOrEqual(0);
    expect(correct!.reportedCachedShare).toBeGreaterThan(dynamic!.reportedCachedShare);
    const bodies = server.requests.map((request) => JSON.parse(request.body) as { max_tokens?: number; stream?: boolean });
    expect(bodies.every((body) => body.max_tokens === 1 && body.stream === true)).toBe(true);
  });

  it("stops with the provider's error when the very first call fails", async () => {
    const closed = await startOpenAIModelServer(() => "ok");
    await closed.close();
    const provider = createOpenAICompatible({ model: "scripted", baseURL: closed.baseURL, apiKey: "test", retry: { maxRetries: 0 } });
    await expect(runLiveKvCacheBench({ provider, dialogues: [sampleDialogue(1)], modes: ["correct"] })).rejects.toMatchObject({
      code: "provider_connection_error",
      message: expect.stringMatching(/^The first live call failed/),
    });
  });
});
