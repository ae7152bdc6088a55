import { describe, expect, it } from "vitest";
import { countRenderedPrompt, createIncrementalQwen3Renderer, getTokenCounter, renderModelRequest } from "../../tokens/index.js";
import type { Message } from "../../types/index.js";
import { buildModeRequests, contextModes, expectedBreakLayer, type ContextMode } from "./context-modes.js";
import { runOfflineKvCacheBench, type OfflineModeResult } from "./run-offline-kv-cache-bench.js";
import { sampleDialogue } from "./test-support/sample-dialogue.js";

const result = runOfflineKvCacheBench({ dialogues: [sampleDialogue(6, "a"), sampleDialogue(4, "b")] });
const byMode = Object.fromEntries(result.modes.map((mode) => [mode.mode, mode])) as Record<ContextMode, OfflineModeResult>;

describe("the offline kv-cache benchmark on a small dialogue", () => {
  it("measures every mode over every call", () => {
    expect(result.modes.map((mode) => mode.mode)).toEqual([...contextModes]);
    for (const mode of result.modes) {
      expect(mode.dialogues).toBe(2);
      expect(mode.calls).toBe(byMode.correct.calls);
      expect(mode.uncachedTokens).toBe(mode.promptTokens - mode.reusablePrefixTokens);
    }
  });

  it("gives the correct layout the highest reusable share and the lowest cost", () => {
    for (const mode of result.modes) {
      expect(byMode.correct.reusableShare).toBeGreaterThanOrEqual(mode.reusableShare);
      // A sliding window sends fewer tokens, so it can cost less; what it loses is the history.
      if (mode.mode === "sliding_window") continue;
      expect(byMode.correct.cost.anthropic).toBeLessThanOrEqual(mode.cost.anthropic);
      // A flattened history is shorter and still a growing token prefix: OpenAI's token-level cache
      // serves it as well as the correct layout (the seed's point: its harm is not the cache).
      if (mode.mode !== "text_format") expect(byMode.correct.cost.openai).toBeLessThanOrEqual(mode.cost.openai);
    }
    expect(byMode.correct.reusableShare).toBeGreaterThan(0.8);
  });

  it("reuses nothing after a timestamp at the top of the system prompt but the template's first tokens", () => {
    const dynamic = byMode.dynamic_system;
    const laterCalls = dynamic.calls - dynamic.dialogues;
    // "<|im_start|>system\nCurrent time: 2025-09-14 10:3" — Qwen3 splits numbers into single digits.
    expect(dynamic.reusablePrefixTokens / laterCalls).toBeLessThan(30);
    expect(dynamic.reusableShare).toBeLessThan(0.01);
    expect(dynamic.anthropicCacheReadTokens).toBe(0);
  });

  it("lets Anthropic read only whole messages: a flattened history is cached token-wise, not message-wise", () => {
    const { correct, text_format: flattened } = byMode;
    expect(flattened.reusableShare).toBeGreaterThan(0.8);
    // The correct layout loses only the generation prompt ("<|im_start|>assistant\n", 3 tokens) per call.
    expect(correct.reusablePrefixTokens - correct.anthropicCacheReadTokens).toBe(3 * (correct.calls - correct.dialogues));
    expect(flattened.reusablePrefixTokens - flattened.anthropicCacheReadTokens).toBeGreaterThan(30 * (flattened.calls - flattened.dialogues));
    expect(flattened.cost.anthropic).toBeGreaterThan(correct.cost.anthropic);
  });

  it("finds every anti-pattern as an undeclared break at its layer, and none in the correct mode", () => {
    for (const mode of result.modes) {
      const layer = expectedBreakLayer[mode.mode];
      if (layer === undefined) {
        expect(mode.undeclaredBreaks).toBe(0);
        continue;
      }
      expect(mode.undeclaredBreaks).toBeGreaterThan(0);
      expect(mode.breakLayers).toEqual({ [layer]: mode.undeclaredBreaks });
    }
  });

  it("uses the catalog's prices of claude-sonnet-4-5 and gpt-4.1", () => {
    expect(result.pricing.anthropic).toMatchObject({ model: "claude-sonnet-4-5", cacheRead: 0.3, cacheWrite: 3.75 });
    expect(result.pricing.openai).toMatchObject({ model: "gpt-4.1", cacheRead: 0.5, input: 2 });
  });
});

describe("rendering in the offline benchmark", () => {
  for (const mode of contextModes) {
    it(`${mode}: renders every request incrementally exactly as the full template does`, () => {
      const renderer = createIncrementalQwen3Renderer();
      for (const request of buildModeRequests(sampleDialogue(), mode)) expect(renderer.render(request)).toBe(renderModelRequest(request));
    });
  }

  it("checks the incremental renderer on every dialogue and mode", () => {
    expect(result.rendering).toEqual({ checked: 2 * contextModes.length, fullRenderFallbacks: 0 });
  });

  it("falls back to full renders where the incremental renderer would differ, and stays exact", () => {
    // A system message inside the trajectory with no system prompt: the template folds it into its
    // tools header, which the incremental renderer does not model.
    const base = sampleDialogue(3, "odd");
    const policy: Message = { role: "system", content: base.system, meta: { id: "policy", origin: "harness", createdAt: "" } };
    const odd = { ...base, system: "", messages: [policy, ...base.messages] };
    const measured = runOfflineKvCacheBench({ dialogues: [odd], modes: ["correct"] });
    expect(measured.rendering.fullRenderFallbacks).toBe(1);
    const counter = getTokenCounter("qwen3");
    const expected = buildModeRequests(odd, "correct").reduce((sum, request) => sum + countRenderedPrompt(request, counter), 0);
    expect(measured.modes[0]!.promptTokens).toBe(expected);
  });
});
