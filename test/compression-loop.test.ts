import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCompression } from "../src/context/compression/index.js";
import { resolveAgentPrefix } from "../src/loop/resolve-agent-prefix.js";
import { createResearchModel, fetchTool, researchUrls } from "../src/context/compression/test-support/research-task.js";
import { createAgent } from "../src/loop/create-agent.js";
import { createTestClock } from "../src/loop/test-support.js";
import { createScriptedProvider } from "../src/providers/scripted/index.js";
import { createFileBlobStore } from "../src/session/blob-store.js";
import { createSessionStore, startSession } from "../src/session/index.js";
import type { AgentEvent, ToolMessage } from "../src/types/index.js";
import { createRepeatedCallLimit } from "../src/tools/create-repeated-call-limit.js";

const TASK = "Identify OpenAI's co-founders and track where each of them works now.";

describe("ctxkit compression in the agent loop", () => {
  it("replays frozen stubs byte-identically after a restart", async () => {
    const directory = await mkdtemp(join(tmpdir(), "ctxkit-compression-"));
    const store = createSessionStore({ directory: join(directory, "sessions") });
    const tools = [fetchTool];
    const system = "You research OpenAI's co-founders.";

    const first = createResearchModel(20_000);
    const firstPolicy = createCompression({ contextWindow: 20_000 });
    const prefix = resolveAgentPrefix({ system, tools, context: [firstPolicy] });
    const started = await startSession(store, { system: prefix.system, tools: prefix.tools, provider: first });
    const blobStore = createFileBlobStore(join(directory, "blobs"));
    const agent = createAgent({ provider: first, system, tools, session: started.session, context: [firstPolicy], prefixGuard: { strict: true }, runtime: { blobStore, clock: createTestClock() } });
    const result = await agent.run(TASK).result();
    await started.session.close();
    expect(result.stopReason).toBe("final_answer");
    expect(firstPolicy.stats().clearedResults).toBeGreaterThan(0);

    const loaded = await store.load(started.session.id);
    expect(loaded.edits.length).toBe(firstPolicy.stats().compactions);
    expect(JSON.stringify(loaded.messages)).toBe(JSON.stringify(agent.messages));

    // A new process: the session is resumed with a fresh policy and blob store over the same directory.
    const second = createScriptedProvider({ turns: ["Still the same facts."] });
    const resumed = await startSession(store, { id: started.session.id, system: prefix.system, tools: prefix.tools, provider: second });
    expect(resumed.prefixChanged).toBe(false);
    // No optional early batch on the resumed call (it may archive the turns before the new request,
    // which is right, but this test is about the frozen context surviving the restart unchanged).
    const secondPolicy = createCompression({ contextWindow: 20_000, expectedRemainingCalls: 0 });
    const again = createAgent({
      provider: second,
      system,
      tools,
      messages: resumed.messages,
      session: resumed.session,
      context: [secondPolicy],
      prefixGuard: { strict: true },
      runtime: { messageLog: resumed.log, blobStore: createFileBlobStore(join(directory, "blobs")) },
    });
    await again.run("Anything new?").result();
    await resumed.session.close();

    const before = first.bodies.at(-1)!;
    const after = second.bodies[0]!;
    expect(after.body.startsWith(before.body.slice(0, before.prefixLength))).toBe(true);
    expect(secondPolicy.stats().compactions).toBe(0);

    // Every stub names a blob that the restarted store still returns.
    const stub = resumed.messages.find((message): message is ToolMessage => message.role === "tool" && message.meta.derived?.kind === "stub")!;
    const blobId = (stub.meta.derived as { blobId: string }).blobId;
    expect(stub.content).toContain(blobId);
    const original = loaded.log.find((message) => message.meta.id === stub.meta.id.split("~")[0]) as ToolMessage;
    expect(createFileBlobStore(join(directory, "blobs")).get(blobId)).toBe(original.content);
  });

  it("stops the run with compaction_failed when compactions do not bring the prompt down", async () => {
    let call = 0;
    // The provider keeps reporting a prompt far over the window, whatever the context holds.
    const provider = createScriptedProvider({
      turns: () => ({ toolCalls: [{ name: "fetch", arguments: { url: researchUrls[call++ % researchUrls.length] } }], usage: { inputTokens: 1_000_000 } }),
    });
    const policy = createCompression({ contextWindow: 20_000 });
    const agent = createAgent({ provider, system: "s", tools: [fetchTool], context: [policy, createRepeatedCallLimit({ limit: 100 })], runtime: { maxIterations: 30 } });
    const result = await agent.run(TASK).result();
    expect(result).toMatchObject({ stopReason: "error", error: { code: "compaction_failed" } });
    expect(result.error!.message).toMatch(/failed 3 times in a row/);
    expect(policy.stats().failedCompactions).toBeGreaterThanOrEqual(1);
    expect(result.iterations).toBeLessThan(10);
  });

  it("compacts hard after a context-overflow error and the single retry fits", async () => {
    // The provider's real limit (12k) is far below the window the policy was told (200k).
    const provider = createResearchModel(12_000);
    const policy = createCompression({ contextWindow: 200_000 });
    const agent = createAgent({ provider, system: "s", tools: [fetchTool], context: [policy], runtime: { clock: createTestClock() } });
    const events: AgentEvent[] = [];
    for await (const event of agent.run(TASK)) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });
    const overflows = events.filter((event) => event.type === "warning" && event.code === "context_overflow").length;
    expect(overflows).toBeGreaterThan(0);
    expect(policy.stats().compactions).toBe(overflows);
    expect(policy.stats().reasons.every((reason) => reason.includes("context overflow"))).toBe(true);
    // Each overflow was followed by exactly one (smaller) request that succeeded.
    expect(provider.requests.length).toBe(events.filter((event) => event.type === "turn_start").length + overflows);
    expect(provider.peakTokens()).toBeLessThanOrEqual(12_000);
  });
});
