import { describe, expect, it } from "vitest";
import { hashBody } from "../context/prefix-guard/index.js";
import { createAgent } from "../loop/create-agent.js";
import { weatherTool } from "../loop/test-support.js";
import type { AgentEvent } from "../types/index.js";
import { rebuildRequest, verifyRebuiltRequest } from "./rebuild-request.js";
import { startSession } from "./start-session.js";
import { openAIShaped } from "./test-support/openai-shaped-provider.js";
import { useTempSessionStore } from "./test-support/session-test-data.js";

const store = useTempSessionStore();

// A server failure (DeepSeek's insufficient_system_resource) ends the run keeping the partial text
// and dropping the cut call. What the session stored must be what the next request sends: resumed,
// the trajectory is the same to the byte, every request rebuilds to its recorded hash, and the next
// request extends the failed one (no undeclared cache break).
describe("a session whose run a server failure ended", () => {
  it("resumes byte-exact: the partial answer without its cut call is the prefix of the next request", async () => {
    const provider = openAIShaped([{ text: "Checking the weather.", toolCalls: [{ name: "get_weather", argumentsText: '{"city":"Pa' }], stopReason: "error" }, "Sunny."]);
    const started = await startSession(store, { system: "s", tools: [weatherTool], provider });
    const first = createAgent({ provider, system: "s", tools: [weatherTool], session: started.session });
    const failed = await first.run("weather?").result();
    await started.session.close();
    expect(failed.stopReason).toBe("error");

    const resumed = await startSession(store, { id: started.session.id, system: "s", tools: [weatherTool], provider });
    expect(JSON.stringify(resumed.messages)).toBe(JSON.stringify(first.messages));
    expect(resumed.messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "Checking the weather." }], stopReason: "error" });

    const again = createAgent({ provider, system: "s", tools: [weatherTool], messages: resumed.messages, session: resumed.session });
    const events: AgentEvent[] = [];
    for await (const event of again.run("again?")) events.push(event);
    await resumed.session.close();
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer", finalText: "Sunny." });
    expect(events.filter((event) => event.type === "cache_break")).toEqual([]);

    const loaded = await store.load(started.session.id);
    expect(loaded.requests).toHaveLength(2);
    const bodies = loaded.requests.map((request, index) => {
      const body = verifyRebuiltRequest(rebuildRequest(loaded, index), provider).body;
      expect(hashBody(body)).toBe(request.bodyHash);
      return JSON.parse(body) as { messages: unknown[] };
    });
    expect(bodies[1]!.messages.slice(0, bodies[0]!.messages.length)).toEqual(bodies[0]!.messages);
    expect(bodies[1]!.messages[bodies[0]!.messages.length]).toEqual({ role: "assistant", content: "Checking the weather." });
  });
});
