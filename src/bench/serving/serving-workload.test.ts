import { describe, expect, it } from "vitest";
import { createQwen3TokenCounter } from "../../tokens/qwen3-token-counter.js";
import { renderModelRequest } from "../../tokens/count-rendered-prompt.js";
import { commonPrefixLength } from "../../tokens/common-prefix-tokens.js";
import { buildServingWorkload } from "./serving-workload.js";

describe("buildServingWorkload", () => {
  const counter = createQwen3TokenCounter();
  const workload = buildServingWorkload({ prefixTokens: 1024, counter, seed: 1, nonce: "n1" });
  const base = renderModelRequest(workload.base);

  it("builds a base request near the target size", () => {
    const tokens = counter.count(base);
    expect(tokens).toBeGreaterThan(900);
    expect(tokens).toBeLessThan(1400);
  });

  it("keeps the whole base prompt in the kept variants and breaks it where each break says", () => {
    const prefixOf = (kind: Parameters<typeof workload.variant>[0]) => commonPrefixLength(base, renderModelRequest(workload.variant(kind, 0)));
    const baseWithoutGenerationPrompt = base.length - "<|im_start|>assistant\n".length;
    expect(prefixOf("kept")).toBeGreaterThanOrEqual(baseWithoutGenerationPrompt);
    expect(prefixOf("status_tail")).toBeGreaterThanOrEqual(baseWithoutGenerationPrompt);
    expect(prefixOf("first_token_changed")).toBe("<|im_start|>system\n".length);
    expect(prefixOf("status_in_system")).toBe("<|im_start|>system\n".length);
    const toolsAt = base.indexOf("# Tools");
    expect(prefixOf("tool_reordered")).toBeGreaterThan(toolsAt);
    expect(prefixOf("tool_reordered")).toBeLessThan(baseWithoutGenerationPrompt);
  });

  it("makes every run's variants new to a cache", () => {
    expect(renderModelRequest(workload.variant("first_token_changed", 0))).not.toBe(renderModelRequest(workload.variant("first_token_changed", 1)));
    expect(renderModelRequest(workload.variant("tool_reordered", 0))).not.toBe(renderModelRequest(workload.variant("tool_reordered", 1)));
  });
});
