import { describe, expect, it } from "vitest";
import { createAgent } from "../../loop/create-agent.js";
import { createTestClock } from "../../loop/test-support.js";
import { createScriptedProvider } from "../../providers/scripted/index.js";
import { replayTodoList } from "../../context/status-bar/replay-todo-list.js";
import type { ToolMessage } from "../../types/index.js";
import { createTodoTools } from "./create-todo-tools.js";

const plan = { items: [{ id: "1", content: "Read config", status: "pending" }, { id: "2", content: "Write summary", status: "pending" }] };

async function run(turns: Parameters<typeof createScriptedProvider>[0]["turns"], messages = [] as Parameters<typeof createAgent>[0]["messages"], start?: string) {
  const agent = createAgent({ provider: createScriptedProvider({ turns }), system: "s", tools: createTodoTools(), ...(messages ? { messages } : {}), runtime: { clock: createTestClock(start) } });
  await agent.run("plan it").result();
  return { agent, results: agent.messages.filter((message): message is ToolMessage => message.role === "tool") };
}

describe("the TODO tools", () => {
  it("apply calls of the same turn in order, before their results are stored", async () => {
    const { agent, results } = await run([
      {
        toolCalls: [
          { name: "rewrite_todo_list", arguments: plan },
          { name: "update_todo_status", arguments: { updates: [{ id: "1", status: "in_progress" }] } },
        ],
      },
      "ok",
    ]);
    expect(results.map((result) => result.isError)).toEqual([false, false]);
    expect(results[1]!.content).toBe("TODO list updated (0/2 completed):\n[1] in_progress: Read config\n[2] pending: Write summary");
    expect(replayTodoList(agent.messages).map((item) => [item.id, item.status])).toEqual([["1", "in_progress"], ["2", "pending"]]);
  });

  it("refuse a second item in progress, and unknown ids, with a message that says how to fix the call", async () => {
    const { agent, results } = await run([
      { toolCalls: [{ name: "rewrite_todo_list", arguments: { items: [{ id: "1", content: "a", status: "in_progress" }, { id: "2", content: "b", status: "pending" }] } }] },
      { toolCalls: [{ name: "update_todo_status", arguments: { updates: [{ id: "2", status: "in_progress" }] } }] },
      { toolCalls: [{ name: "update_todo_status", arguments: { updates: [{ id: "9", status: "completed" }] } }] },
      { toolCalls: [{ name: "update_todo_status", arguments: { updates: [{ id: "1", status: "completed" }, { id: "2", status: "in_progress" }] } }] },
      "done",
    ]);
    expect(results[1]).toMatchObject({ isError: true, content: expect.stringContaining('At most one item may be in_progress, but "1" and "2" would be.') });
    expect(results[2]).toMatchObject({ isError: true, content: expect.stringContaining('No TODO item has the id "9". Known ids: 1, 2.') });
    expect(results[3]!.isError).toBe(false);
    // Failed calls change nothing; the list is what the successful calls made it.
    expect(replayTodoList(agent.messages).map((item) => item.status)).toEqual(["completed", "in_progress"]);
  });

  it("keep creation times across rewrites and find the same list after a restart", async () => {
    const first = await run([{ toolCalls: [{ name: "rewrite_todo_list", arguments: plan }] }, "ok"]);
    const created = replayTodoList(first.agent.messages)[0]!.createdAt;
    const second = await run(
      [{ toolCalls: [{ name: "rewrite_todo_list", arguments: { items: [{ ...plan.items[0]!, status: "completed" }, { id: "3", content: "New step", status: "pending" }] } }] }, "ok"],
      [...first.agent.messages],
      "2026-01-02T00:00:00.000Z",
    );
    const items = replayTodoList(second.agent.messages);
    expect(items.map((item) => item.id)).toEqual(["1", "3"]);
    expect(items[0]!.createdAt).toBe(created);
    expect(items[0]!.updatedAt).not.toBe(created);
  });
});
