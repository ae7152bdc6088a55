import { describe, expect, it } from "vitest";
import { createAgent } from "../loop/create-agent.js";
import { hashBody } from "../context/prefix-guard/index.js";
import type { ModelRequest } from "../types/index.js";
import { rebuildRequest, verifyRebuiltRequest } from "./rebuild-request.js";
import { startSession } from "./start-session.js";
import { openAIShaped } from "./test-support/openai-shaped-provider.js";
import { useTempSessionStore } from "./test-support/session-test-data.js";

const store = useTempSessionStore();

async function recordedSession() {
  const provider = openAIShaped(["first answer", "second answer"]);
  const started = await startSession(store, { system: "s", tools: [], provider });
  const agent = createAgent({ provider, system: "s", session: started.session });
  await agent.run("one").result();
  await agent.run("two").result();
  await started.session.close();
  return { id: started.session.id, provider };
}

describe("request records carry the hash of the body as sent", () => {
  it("stores sha256 of each wire body, and rebuilding with the same provider reproduces it", async () => {
    const { id, provider } = await recordedSession();
    const loaded = await store.load(id);
    expect(loaded.requests).toHaveLength(2);
    for (const [index, request] of loaded.requests.entries()) {
      expect(request.bodyHash).toMatch(/^sha256:[0-9a-f]{64}$/);
      const body = verifyRebuiltRequest(rebuildRequest(loaded, index), provider).body;
      expect(hashBody(body)).toBe(request.bodyHash);
    }
  });

  it("detects a provider whose code now writes other bytes for the same messages, with a clear error", async () => {
    const { id, provider } = await recordedSession();
    const loaded = await store.load(id);
    // A provider update that serialises user messages with a trailing space.
    const changed = {
      serialize: (request: ModelRequest) =>
        provider.serialize({ ...request, messages: request.messages.map((message) => (message.role === "user" ? { ...message, content: `${message.content} ` } : message)) }),
    };
    expect(() => verifyRebuiltRequest(rebuildRequest(loaded, 1), changed)).toThrowError(expect.objectContaining({ code: "session_body_mismatch" }));
    await expect(startSession(store, { id, system: "s", tools: [], provider: { ...provider, ...changed } })).rejects.toMatchObject({
      code: "session_body_mismatch",
      message: expect.stringMatching(/Start a new session/),
    });
    // The check can be turned off, and the same provider resumes as before.
    const resumed = await startSession(store, { id, system: "s", tools: [], provider: { ...provider, ...changed }, verifyBody: false });
    await resumed.session.close();
    const again = await startSession(store, { id, system: "s", tools: [], provider });
    await again.session.close();
  });

  it("records the prefix the agent really sends, also when startSession was given fewer tools", async () => {
    const provider = openAIShaped(["done"]);
    const started = await startSession(store, { system: "s", tools: [], provider });
    const tool = { name: "lookup", description: "Look something up.", parameters: { type: "object" }, execute: async () => "x" };
    const agent = createAgent({ provider, system: "s", tools: [tool], session: started.session });
    await agent.run("go").result();
    await started.session.close();
    const loaded = await store.load(started.session.id);
    expect(loaded.prefix.tools.map((entry) => entry.name)).toEqual(["lookup"]);
    expect(loaded.prefixes).toHaveLength(2);
    expect(loaded.requests[0]!.prefixIndex).toBe(1);
    expect(hashBody(verifyRebuiltRequest(rebuildRequest(loaded, 0), provider).body)).toBe(loaded.requests[0]!.bodyHash);
  });
});
