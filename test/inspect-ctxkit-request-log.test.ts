import { describe, expect, it } from "vitest";
import { createAgent } from "../src/index.js";
import { createStatusBar, type StatusBarMode } from "../src/context/status-bar/index.js";
import { createTranscriptAnalyzer } from "../src/inspect/analysis/analyze-transcript.js";
import { importOpenAILog } from "../src/inspect/importers/import-openai-log.js";
import { createOpenAICompatible } from "../src/providers/openai-compatible/index.js";
import { startOpenAIModelServer } from "../src/testing.js";
import { createTestClock } from "../src/loop/test-support.js";
import { createSupportDeskTools } from "../src/bench/status-bar/support-desk-tools.js";
import { supportDeskLimits, supportDeskRequest, supportDeskSystemPrompt, supportDeskTurns } from "../src/bench/status-bar/support-desk-scenario.js";

/**
 * The request bodies ctxkit itself sends (recorded by a loopback OpenAI server, byte for byte as
 * they went over the wire), logged one per line and read back with `--format openai-log`.
 */
async function recordRequestLog(mode: StatusBarMode, calls: number): Promise<string> {
  const server = await startOpenAIModelServer(supportDeskTurns(calls));
  try {
    const statusBar = createStatusBar({ mode, limits: supportDeskLimits, environment: { workingDirectory: "/work/desk", os: "linux", shell: "/bin/bash", runtime: "node v20" } });
    const agent = createAgent({
      provider: createOpenAICompatible({ vendor: "vllm", model: "Qwen/Qwen3-8B", baseURL: server.baseURL, env: {} }),
      system: supportDeskSystemPrompt,
      tools: createSupportDeskTools(),
      context: [statusBar],
      runtime: { clock: createTestClock("2025-09-14T10:30:00.000Z") },
    });
    for await (const event of agent.run(supportDeskRequest)) if (event.type === "error") throw new Error(event.message);
    return server.requests.map((request) => request.body).join("\n");
  } finally {
    await server.close();
  }
}

describe("inspect on ctxkit's own request logs", () => {
  it.each(["replace", "append"] as const)("counts the <agent_status> message as the tail, not as an edited message (%s mode)", async (mode) => {
    const log = await recordRequestLog(mode, 6);
    const { transcripts, problems } = importOpenAILog(log, "ctxkit-requests.jsonl");
    expect(problems).toEqual([]);
    const transcript = transcripts[0]!;
    expect(transcript.calls).toHaveLength(log.split("\n").length);
    expect(transcript.calls.length).toBeGreaterThan(3);
    for (const call of transcript.calls) expect(call.request.tail?.content.startsWith("<agent_status>")).toBe(true);
    const analyzed = createTranscriptAnalyzer({ tokenizer: "estimate" }).analyze(transcript);
    expect(analyzed.calls.flatMap((call) => call.breaks)).toEqual([]);
    expect(analyzed.totals.undeclaredBreaks).toBe(0);
    // Everything but the tail extends the previous request.
    for (const call of analyzed.calls.slice(1)) expect(call.reusablePrefixTokens).toBeGreaterThan(0);
  });
});
