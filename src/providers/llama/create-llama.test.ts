import { afterAll, describe, expect, it } from "vitest";
import { createAgent } from "../../loop/create-agent.js";
import { commonPrefixTokens } from "../../tokens/common-prefix-tokens.js";
import type { AgentEvent } from "../../types/event.js";
import { createLlama, type LlamaProvider } from "./create-llama.js";
import type { LlamaProviderOptions } from "./llama-provider-options.js";
import { collect, lookupTool, noteTool, recording, tinyModelPath, userRequest } from "./test-support.js";

const modelPath = await tinyModelPath();
const providers: LlamaProvider[] = [];
afterAll(async () => {
  for (const provider of providers) await provider.dispose();
});

// One thread: on a loaded 2-core machine ggml's spinning thread barriers make two threads ~50× slower per token.
function engine(options: Partial<LlamaProviderOptions> = {}): LlamaProvider {
  const provider = createLlama({ modelPath, threads: 1, seed: 7, parallelToolCalls: false, contextSize: 4096, ...options });
  providers.push(provider);
  return provider;
}

const slow = 180_000;

describe("createLlama on a generated Qwen3 model", () => {
  it("runs a multi-turn tool loop through createAgent, reusing exactly the common token prefix of consecutive prompts", async () => {
    const choices = ["required", "required", "none"] as const;
    let call = 0;
    const provider = engine({ toolChoice: () => choices[Math.min(call++, choices.length - 1)]! });
    const recorded = recording(provider);
    const agent = createAgent({ provider: recorded, system: "You are a test agent.", tools: [lookupTool, noteTool], settings: { maxOutputTokens: 120 } });
    const events: AgentEvent[] = [];
    for await (const event of agent.run("Look the key up, then answer.")) events.push(event);

    expect(provider.calls, JSON.stringify(events.filter((event) => event.type !== "text_delta").slice(-6))).toHaveLength(3);
    const toolResults = agent.messages.filter((message) => message.role === "tool");
    expect(toolResults).toHaveLength(2);
    for (const result of toolResults) expect(result.isError).toBe(false);
    const usages = events.flatMap((event) => (event.type === "usage" ? [event.usage] : []));
    for (const [index, record] of provider.calls.entries()) {
      // The engine evaluated exactly the prompt ctxkit rendered and tokenized.
      expect(record.promptTokens).toEqual(await provider.tokenize(recorded.requests[index]!));
      const predicted = index === 0 ? 0 : commonPrefixTokens(provider.calls[index - 1]!.promptTokens, record.promptTokens);
      expect(record.reusedTokens).toBe(predicted);
      expect(record.evaluatedTokens).toBe(record.promptTokens.length - predicted);
      expect(usages[index]).toMatchObject({ inputTokens: record.promptTokens.length, cachedInputTokens: predicted });
      // A tool loop only appends: the whole previous prompt is reused.
      if (index > 0) expect(predicted).toBe(provider.calls[index - 1]!.promptTokens.length);
    }
  }, slow);

  it("masks tool availability in the sampler: the prompt bytes stay and no prefix token is re-evaluated", async () => {
    const active = [["lookup"], ["note"]];
    let call = 0;
    const provider = engine({ toolChoice: "required", activeTools: () => active[call++] });
    const first = userRequest("Use a tool.");
    const firstEvents = await collect(provider.stream(first));
    const firstDone = firstEvents.at(-1);
    if (firstDone?.type !== "done") throw new Error(`expected done, got ${JSON.stringify(firstDone)}`);
    const firstCall = firstDone.response.content.find((part) => part.type === "tool_call");
    expect(firstCall).toMatchObject({ name: "lookup" });
    expect(["alpha", "beta"]).toContain((firstCall as { arguments: { key: string } }).arguments.key);

    const second = {
      ...first,
      messages: [
        ...first.messages,
        { role: "assistant" as const, content: firstDone.response.content, meta: { id: "a1", origin: "model" as const, createdAt: "2026-01-01T00:00:01.000Z" } },
        { role: "tool" as const, toolCallId: (firstCall as { id: string }).id, toolName: "lookup", content: "42", isError: false, meta: { id: "t1", origin: "tool" as const, createdAt: "2026-01-01T00:00:02.000Z" } },
      ],
    };
    const secondDone = (await collect(provider.stream(second))).at(-1);
    if (secondDone?.type !== "done") throw new Error(`expected done, got ${JSON.stringify(secondDone)}`);
    expect(secondDone.response.content.filter((part) => part.type === "tool_call").map((part) => part.name)).toEqual(["note"]);

    const [firstRecord, secondRecord] = provider.calls;
    expect(provider.serialize(second).body.startsWith(provider.serialize(first).body)).toBe(true);
    expect(secondRecord!.reusedTokens).toBe(firstRecord!.promptTokens.length);
    expect(secondRecord!.evaluatedTokens).toBe(secondRecord!.promptTokens.length - firstRecord!.promptTokens.length);
    // What deleting the tool definition would have cost instead: the tool list sits in the system header.
    const withoutLookup = await provider.tokenize({ ...second, tools: second.tools.filter((tool) => tool.name !== "lookup") });
    expect(commonPrefixTokens(withoutLookup, secondRecord!.promptTokens)).toBeLessThan(firstRecord!.promptTokens.length / 2);
  }, slow);

  it("stops at maxOutputTokens, reports usage, and repeats its output for the same seed", async () => {
    const provider = engine({ toolChoice: "none" });
    const request = userRequest("Say something.", { settings: { maxOutputTokens: 12, temperature: 0.8 } });
    const first = (await collect(provider.stream(request))).at(-1);
    const second = (await collect(provider.stream(request))).at(-1);
    if (first?.type !== "done" || second?.type !== "done") throw new Error("expected done events");
    expect(first.response.stopReason).toBe("length");
    expect(first.usage).toMatchObject({ outputTokens: 12, cachedInputTokens: 0 });
    expect(first.usage.timeToFirstTokenMs).toBeGreaterThanOrEqual(0);
    expect(second.response.content).toEqual(first.response.content);
    // The same prompt again: all of it reused but its last token, whose logits sampling needs.
    expect(second.usage.cachedInputTokens).toBe(second.usage.inputTokens - 1);
  }, slow);

  it("ends an aborted generation with an aborted error event and keeps the cache usable", async () => {
    const provider = engine({ toolChoice: "none" });
    const request = userRequest("Write at length.", { settings: { maxOutputTokens: 2000 } });
    const controller = new AbortController();
    const events = [];
    let deltas = 0;
    for await (const event of provider.stream(request, controller.signal)) {
      events.push(event);
      if (event.type === "text_delta" && ++deltas === 3) controller.abort();
    }
    const end = events.at(-1);
    expect(end).toMatchObject({ type: "error", error: { code: "aborted" }, partial: { stopReason: "aborted" } });
    expect(end?.type === "error" && end.partial.content.length).toBe(1);
    expect(events.filter((event) => event.type === "text_delta").length).toBeLessThanOrEqual(4);

    const next = (await collect(provider.stream(userRequest("Write at length.", { settings: { maxOutputTokens: 2 } })))).at(-1);
    expect(next).toMatchObject({ type: "done", usage: { outputTokens: 2 } });
    expect(next?.type === "done" && next.usage.cachedInputTokens).toBe(provider.calls[0]!.promptTokens.length - 1);
  }, slow);

  it("reports a missing node-llama-cpp as an error event that names the install command", async () => {
    const provider = createLlama({ modelPath, moduleSpecifier: "ctxkit-no-such-engine-package" });
    const end = (await collect(provider.stream(userRequest("hi")))).at(-1);
    expect(end).toMatchObject({ type: "error", error: { code: "engine_unavailable" } });
    expect(end?.type === "error" && end.error.message).toContain("npm install -E node-llama-cpp@3.21.1");
  });

  it("fails fast on a model path that does not exist", () => {
    expect(() => createLlama({ modelPath: "/no/such/model.gguf" })).toThrow(/does not exist/);
  });
});
