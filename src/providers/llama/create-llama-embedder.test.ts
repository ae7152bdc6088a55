import { afterAll, describe, expect, it } from "vitest";
import { createToolSearchPolicy } from "../../tools/search/create-tool-search-policy.js";
import { defineTool } from "../../tools/tool.js";
import { createLlamaEmbedder, type LlamaEmbedder } from "./create-llama-embedder.js";
import { tinyModelPath } from "./test-support.js";

// The generated model's weights are random: its vectors mean nothing. These tests check the
// plumbing (load, shape, determinism, the tool-search path), not the ranking.
const modelPath = await tinyModelPath();
const embedders: LlamaEmbedder[] = [];
afterAll(async () => {
  for (const embedder of embedders) await embedder.dispose();
});
// One thread: see create-llama.test.ts.
const embedder = (options: Partial<Parameters<typeof createLlamaEmbedder>[0]> = {}) => {
  const created = createLlamaEmbedder({ modelPath, threads: 1, contextSize: 128, ...options });
  embedders.push(created);
  return created;
};
const slow = 120_000;
// One loaded model for the tests that embed (loading is most of their time).
const shared = embedder();

describe("createLlamaEmbedder on a generated Qwen3 GGUF", () => {
  it("gives one finite vector per text, all of the model's embedding length, the same for the same text", async () => {
    const local = shared;
    const signal = new AbortController().signal;
    const [first, second, again] = await local.embed(["list the reviews of a pull request", "merge a branch", "list the reviews of a pull request"], signal);
    expect(first).toBeInstanceOf(Float32Array);
    expect(first!.length).toBe(64); // the tiny model's hidden size
    expect(second!.length).toBe(first!.length);
    expect([...first!].every(Number.isFinite)).toBe(true);
    expect([...again!]).toEqual([...first!]);
    expect([...second!]).not.toEqual([...first!]);
    // A text longer than the context is cut to it, not refused.
    const [long] = await local.embed(["word ".repeat(2_000)], signal);
    expect(long!.length).toBe(64);
  }, slow);

  it("serves tool_search end to end: the policy's search embeds the tools and the query and returns tools", async () => {
    const tools = ["list_reviews", "merge_branch", "create_issue"].map((name) => defineTool<Record<string, never>>({ name, description: `${name.replace("_", " ")}.`, parameters: { type: "object", properties: {} }, deferred: true, async execute() { return "ok"; } }));
    const warnings: string[] = [];
    const policy = createToolSearchPolicy(tools, { embeddings: { embedder: shared, timeoutMs: 60_000 }, onWarning: (warning) => warnings.push(warning.message) });
    const hits = await policy.catalog.find("who approved it", 3);
    expect(warnings).toEqual([]);
    // Words find nothing here; every tool comes from the model's ranking.
    expect(policy.catalog.search("who approved it", 3)).toEqual([]);
    expect(hits.map((hit) => hit.name).sort()).toEqual(["create_issue", "list_reviews", "merge_branch"]);
  }, slow);

  it("reports a missing node-llama-cpp with the install command", async () => {
    const missing = embedder({ moduleSpecifier: "ctxkit-no-such-engine-package" });
    await expect(missing.embed(["x"], new AbortController().signal)).rejects.toMatchObject({ code: "engine_unavailable", message: expect.stringContaining("npm install -E node-llama-cpp@3.21.1") });
  });

  it("reports a file that is not a model as embedding_failed", async () => {
    const broken = embedder({ modelPath: new URL(import.meta.url).pathname });
    await expect(broken.embed(["x"], new AbortController().signal)).rejects.toMatchObject({ code: "embedding_failed" });
  }, slow);
});
