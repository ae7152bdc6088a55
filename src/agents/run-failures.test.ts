import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRepeatedCallLimit } from "../tools/create-repeated-call-limit.js";
import { describe, expect, it } from "vitest";
import { findSplitViolations } from "../context/compression/conversation-units.js";
import { createStatusCheckpointMessage } from "../context/status-bar/status-checkpoint.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { createSessionStore, startSession } from "../session/index.js";
import type { Message, ToolMessage } from "../types/index.js";
import type { SessionSink } from "../loop/agent-options.js";
import { createAgent } from "../loop/create-agent.js";
import { createTestClock, weatherTool } from "../loop/test-support.js";

const weatherTurn = (city: string) => ({ toolCalls: [{ name: "get_weather", arguments: { city } }] });

describe("failures around tool calls", () => {
  it("turns a throwing tool-call hook into an error result, so the call keeps its result and the run goes on", async () => {
    const provider = createScriptedProvider({ turns: [weatherTurn("Oslo"), "done"] });
    const agent = createAgent({
      provider,
      system: "s",
      tools: [weatherTool],
      context: [
        {
          name: "audit",
          onToolCall: () => {
            throw new Error("audit log unavailable");
          },
        },
      ],
    });
    const result = await agent.run("weather?").result();
    expect(result.stopReason).toBe("final_answer");
    const toolResult = agent.messages.find((message): message is ToolMessage => message.role === "tool");
    expect(toolResult).toMatchObject({ isError: true });
    expect(toolResult!.content).toContain("audit log unavailable");
    expect(findSplitViolations(agent.messages)).toEqual([]);
  });

  it("ends the run with a typed error when a result processor throws, leaving no call without its result", async () => {
    const provider = createScriptedProvider({ turns: [weatherTurn("Oslo"), "done"] });
    const agent = createAgent({
      provider,
      system: "s",
      tools: [weatherTool],
      context: [{ name: "test", processToolResult: () => {
        throw new Error("Could not store a blob in /ro/blobs");
      } }],
    });
    const result = await agent.run("weather?").result();
    expect(result).toMatchObject({ stopReason: "error", error: { code: "tool_result_processing_failed" } });
    expect(result.error!.message).toContain("Could not store a blob");
    expect(findSplitViolations(agent.messages)).toEqual([]);
  });

  it("records the error of a failed run in the session's run_end", async () => {
    const directory = await mkdtemp(join(tmpdir(), "ctxkit-run-failures-"));
    const store = createSessionStore({ directory });
    const provider = createScriptedProvider({ turns: [weatherTurn("Oslo"), weatherTurn("Oslo"), weatherTurn("Oslo"), weatherTurn("Oslo"), "done"] });
    const { session } = await startSession(store, { system: "s", tools: [weatherTool], provider });
    const agent = createAgent({ provider, system: "s", tools: [weatherTool], session, context: [createRepeatedCallLimit()] });
    const result = await agent.run("weather?").result();
    await session.close();
    expect(result.stopReason).toBe("repeated_tool_call");
    const loaded = await store.load(session.id);
    expect(loaded.runs.at(-1)!.end).toMatchObject({ stopReason: "repeated_tool_call", error: { code: "repeated_tool_call" } });
  });
});

describe("resuming after a compaction", () => {
  it("continues the tool-call numbering from the status checkpoint, as the process before the restart did", async () => {
    const checkpoint = createStatusCheckpointMessage({ toolCalls: { get_weather: 7 }, targetCalls: [], todo: [] }, "cp", new Date(0));
    const messages: Message[] = [
      { role: "user", content: "weather?", meta: { id: "u", origin: "user", createdAt: "" } },
      { role: "user", content: "[COMPRESSED] Summary: looked up seven cities.", meta: { id: "s", origin: "harness", createdAt: "" } },
      checkpoint,
    ];
    const numbers: Array<[number, number]> = [];
    const provider = createScriptedProvider({ turns: [weatherTurn("Oslo"), "done"] });
    const agent = createAgent({
      provider,
      system: "s",
      tools: [weatherTool],
      messages,
      context: [{ name: "test", processToolResult: (result, info) => {
        numbers.push([info.callNumber, info.totalCallNumber]);
        return result;
      } }],
      runtime: { clock: createTestClock() },
    });
    await agent.run("and Oslo?").result();
    expect(numbers).toEqual([[8, 8]]);
  });
});

describe("a session that cannot be written", () => {
  it("ends the run with a typed error instead of rejecting", async () => {
    let requests = 0;
    const session: SessionSink = {
      id: "broken",
      appendMessage: () => undefined,
      appendRequest: () => requests++,
      appendUsage: () => undefined,
      appendContextEdit: () => undefined,
      appendRunStart: () => undefined,
      appendRunEnd: () => undefined,
      flush: () => Promise.reject(new Error("ENOSPC: no space left on device")),
    };
    const provider = createScriptedProvider({ turns: ["done"] });
    const agent = createAgent({ provider, system: "s", session });
    const result = await agent.run("hi").result();
    expect(result).toMatchObject({ stopReason: "error", error: { code: "session_write_failed" } });
    expect(result.error!.message).toContain("ENOSPC");
    // Nothing unrecorded was sent.
    expect(provider.requests).toHaveLength(0);
  });
});

describe("a run abandoned by its consumer", () => {
  it("answers the calls it had started, so the next run's request stays valid", async () => {
    const provider = createScriptedProvider({
      turns: [{ toolCalls: [{ name: "get_weather", arguments: { city: "Oslo" } }, { name: "get_weather", arguments: { city: "Rome" } }] }, "done"],
    });
    const agent = createAgent({ provider, system: "s", tools: [weatherTool] });
    for await (const event of agent.run("weather?")) {
      if (event.type === "tool_result") break;
    }
    expect(findSplitViolations(agent.messages)).toEqual([]);
    const result = await agent.run("and now?").result();
    expect(result.stopReason).toBe("final_answer");
    expect(findSplitViolations(provider.requests.at(-1)!.messages)).toEqual([]);
  });
});
