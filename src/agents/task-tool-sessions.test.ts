import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent } from "../loop/create-agent.js";
import { createTestClock, createTestIds } from "../loop/test-support.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { collectSubAgentLinks, createSessionStore, rebuildRequest, startSession, sumSubAgentUsage } from "../session/index.js";
import { verifyRebuiltRequest } from "../session/rebuild-request.js";
import { createExploreAgent, createForkAgent } from "./builtin-agents.js";
import { createTaskTool } from "./create-task-tool.js";

describe("sub-agent sessions", () => {
  it("writes one session per child, links each from the parent's tool message, and a resumed parent never re-runs them", async () => {
    const store = createSessionStore({ directory: await mkdtemp(join(tmpdir(), "ctxkit-subsessions-")) });
    const clock = createTestClock();
    const createId = createTestIds();
    const provider = createScriptedProvider({
      turns: (request) => {
        const last = request.messages.at(-1);
        if (last?.role === "user" && last.content === "Summarise the plan.") return "Plan: two steps.";
        if (last?.role === "user" && last.content === "Find the config loader.") return "src/config.ts loads it.";
        if (request.messages.length === 1) {
          return {
            toolCalls: [
              { id: "call_explore", name: "task", arguments: { agent: "explore", description: "find the loader", prompt: "Find the config loader." } },
              { id: "call_fork", name: "task", arguments: { agent: "fork", description: "summarise", prompt: "Summarise the plan." } },
            ],
          };
        }
        return "All done.";
      },
    });
    const task = createTaskTool({ agents: [createExploreAgent({ tools: [] }), createForkAgent()], provider, sessionStore: store, clock, createId });
    const started = await startSession(store, { system: "main", tools: [task], provider });
    const parent = createAgent({ provider, system: "main", tools: [task], session: started.session, runtime: { clock, createId } });
    const result = await parent.run("Plan and find the loader.").result();
    await started.session.close();
    expect(result.stopReason).toBe("final_answer");

    const loaded = await store.load(started.session.id);
    const links = collectSubAgentLinks(loaded.messages);
    expect(links.map((link) => [link.toolCallId, link.description, link.run.agent, link.run.stopReason])).toEqual([
      ["call_explore", "find the loader", "explore", "final_answer"],
      ["call_fork", "summarise", "fork", "final_answer"],
    ]);
    expect(loaded.runs[0]!.end?.subAgentUsage).toEqual(sumSubAgentUsage(links));
    for (const link of links) {
      const child = await store.load(link.run.sessionId!);
      expect(child.runs).toHaveLength(1);
      expect(child.runs[0]!.end?.stopReason).toBe("final_answer");
      // Each child's session alone rebuilds what it sent (a fork's holds the context it started from).
      verifyRebuiltRequest(rebuildRequest(child, 0), provider);
    }
    const forkSession = await store.load(links[1]!.run.sessionId!);
    expect(forkSession.messages.slice(0, 2).map((message) => message.meta.id)).toEqual(loaded.messages.slice(0, 2).map((message) => message.meta.id));
    expect((await store.list()).length).toBe(3);

    // Resume: the children's results are frozen in the trajectory; the next run starts no child.
    const callsBefore = provider.requests.length;
    const resumed = await startSession(store, { id: started.session.id, system: "main", tools: [task], provider });
    const again = createAgent({ provider, system: "main", tools: [task], messages: resumed.messages, session: resumed.session, runtime: { clock, createId } });
    const next = await again.run("Anything else?").result();
    await resumed.session.close();
    expect(next.finalText).toBe("All done.");
    expect(provider.requests.length - callsBefore).toBe(1);
    expect(next.subAgentUsage).toBeUndefined();
    expect((await store.list()).length).toBe(3);
    expect(collectSubAgentLinks(resumed.messages)).toHaveLength(2);
  }, 30_000);
});
