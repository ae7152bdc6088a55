import { describe, expect, it } from "vitest";
import type { ToolDefinition, ToolSearchEmbedder } from "../../types/index.js";
import { measureSemanticSpeed } from "./measure-semantic-speed.js";

/** A deterministic embedder: a text's vector is its length and its first letter's code; `fails` decides which calls throw. */
function fakeEmbedder(fails: (texts: readonly string[]) => boolean): ToolSearchEmbedder {
  return {
    id: "fake",
    async embed(texts) {
      if (fails(texts)) throw new Error("connection refused.");
      return texts.map((text) => new Float32Array([text.length, text.charCodeAt(0) || 1, 1]));
    },
  };
}

const tools: ToolDefinition[] = ["get_order", "cancel_order", "list_reviews"].map((name) => ({ name, description: `${name.replace("_", " ")}.`, parameters: { type: "object", properties: {} } }));

describe("the semantic speed measurement", () => {
  it("stops with the reason when embedding the tools fails", async () => {
    await expect(measureSemanticSpeed(tools, ["cancel it"], { embedder: fakeEmbedder(() => true) })).rejects.toMatchObject({ code: "embedding_failed", message: expect.stringContaining("Embedding the 3 tools of the speed measurement failed") });
  });

  it("counts the searches that fell back to words (their times are not the model's)", async () => {
    // The tools embed; every query's call fails.
    const speed = await measureSemanticSpeed(tools, ["cancel it", "list them"], { embedder: fakeEmbedder((texts) => texts.length === 1 && !texts[0]!.includes(".")) });
    expect(speed.fallbacks).toBeGreaterThan(0);
    expect(speed.firstFallback).toContain("connection refused.");
  });
});
