import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createSessionStore } from "./session-store.js";
import { collectSubAgentLinks, sumSubAgentUsage } from "./sub-agent-links.js";
import { validateSessionRecord } from "./validate-session-record.js";

const fixtures = createSessionStore({ directory: fileURLToPath(new URL("./fixtures/", import.meta.url)) });

describe("sub-agent links in sessions", () => {
  it("v3-sub-agents holds a task call's link to its child's session and the run's sub-agent usage", async () => {
    const session = await fixtures.load("v3-sub-agents");
    const links = collectSubAgentLinks(session.log);
    expect(links).toEqual([
      {
        toolCallId: "call_task",
        description: "find the config loader",
        run: expect.objectContaining({ agent: "explore", sessionId: "20260101-000011-3d9ffd", stopReason: "final_answer", iterations: 1, provider: "scripted" }),
      },
    ]);
    expect(session.runs[0]!.end?.subAgentUsage).toEqual(sumSubAgentUsage(links));
    expect(session.runs[0]!.end?.usage.inputTokens).toBe(282 + 515 + links[0]!.run.usage.inputTokens);
  });

  it("older sessions have no links and still load", async () => {
    expect(collectSubAgentLinks((await fixtures.load("v3-derived")).log)).toEqual([]);
    expect(collectSubAgentLinks((await fixtures.load("v1-basic")).log)).toEqual([]);
  });

  it("rejects a malformed link or sub-agent usage at the trust boundary", () => {
    const meta = { id: "m1", origin: "tool", createdAt: "2026-01-01T00:00:00.000Z" };
    const tool = { role: "tool", toolCallId: "c1", toolName: "task", content: "x", isError: false };
    const usage = { inputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 1, reasoningTokens: 0 };
    const link = { agent: "explore", sessionId: "s1", stopReason: "final_answer", iterations: 1, usage, provider: "p", model: "m" };
    expect(validateSessionRecord({ type: "message", message: { ...tool, meta: { ...meta, subAgent: link } } }).ok).toBe(true);
    expect(validateSessionRecord({ type: "message", message: { ...tool, meta: { ...meta, subAgent: { ...link, usage: { inputTokens: -1 } } } } })).toMatchObject({ ok: false });
    expect(validateSessionRecord({ type: "message", message: { ...tool, meta: { ...meta, subAgent: { ...link, agent: 3 } } } })).toMatchObject({ ok: false, reason: expect.stringContaining("subAgent.agent") });
    const end = { type: "run_end", runId: "r", stopReason: "final_answer", usage, iterations: 1, at: "t" };
    expect(validateSessionRecord({ ...end, subAgentUsage: usage }).ok).toBe(true);
    expect(validateSessionRecord({ ...end, subAgentUsage: "lots" })).toMatchObject({ ok: false, reason: expect.stringContaining("subAgentUsage") });
  });
});
