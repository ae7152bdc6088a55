import { describe, expect, it } from "vitest";
import { compressionPolicyNames, createCompression, createMemoryBlobStore, type CompressionPolicyName } from "../src/context/compression/index.js";
import { findSplitViolations } from "../src/context/compression/conversation-units.js";
import { createResearchModel, fetchTool, researchFacts } from "../src/context/compression/test-support/research-task.js";
import { createAgent } from "../src/loop/create-agent.js";
import { createTestClock } from "../src/loop/test-support.js";

const WINDOW = 20_000;

async function runResearch(name: CompressionPolicyName) {
  const provider = createResearchModel(WINDOW);
  const blobStore = createMemoryBlobStore();
  const policy = createCompression({ policy: name, contextWindow: WINDOW });
  const agent = createAgent({ provider, system: "You research OpenAI's co-founders.", tools: [fetchTool], context: [policy], runtime: { blobStore, clock: createTestClock(), maxIterations: 12 } });
  const result = await agent.run("Identify OpenAI's co-founders and track where each of them works now.").result();
  return { result, provider, policy, agent, blobStore };
}

describe("the seed's six strategies on a scripted research task (7 pages of ~24k chars, 20k-token window)", () => {
  it("without compression the task overflows the window, as in experiment 2-10", async () => {
    const { result } = await runResearch("none");
    expect(result).toMatchObject({ stopReason: "error", error: { code: "context_overflow" } });
  });

  for (const name of compressionPolicyNames.filter((policy) => policy !== "none")) {
    it(`${name} finishes under the window with every call paired with its result`, async () => {
      const { result, provider, policy, agent } = await runResearch(name);
      expect(result.stopReason).toBe("final_answer");
      expect(provider.peakTokens()).toBeLessThanOrEqual(WINDOW);
      expect(findSplitViolations(agent.messages)).toEqual([]);
      // Every request the model saw started with the original task.
      for (const request of provider.requests) expect(request.messages[0]!.content).toContain("co-founders");
      const stats = policy.stats();
      expect(stats.summarizedResults + stats.budgetedResults + stats.clearedResults).toBeGreaterThan(0);
    });
  }

  it("context-aware keeps the task's facts and citations keeps their sources", async () => {
    for (const name of ["context-aware", "context-aware-citations"] as const) {
      const { agent } = await runResearch(name);
      const seen = agent.messages.map((message) => (message.role === "tool" ? message.content : "")).join("\n");
      for (const fact of researchFacts) expect(seen).toContain(fact);
      if (name === "context-aware-citations") expect(seen).toContain("[source: https://news.example.com/openai/founders/page-1.html]");
    }
  });

  it("windowed keeps full content until 80% and then tags every result with the seed's marker", async () => {
    const { provider } = await runResearch("windowed");
    const firstTool = provider.requests[1]!.messages.find((message) => message.role === "tool")!;
    expect(firstTool.content.length).toBeGreaterThan(20_000);
    const last = provider.requests.at(-1)!.messages.filter((message) => message.role === "tool");
    expect(last.some((message) => /^\[COMPRESSED\] \[Original: \d+ chars → Compressed: \d+ chars\]/.test(message.content))).toBe(true);
  });
});
