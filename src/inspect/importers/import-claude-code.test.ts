import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importClaudeCode } from "./import-claude-code.js";

const file = "fixtures/claude-code-session.jsonl";
const text = readFileSync(new URL(file, import.meta.url), "utf8");
const session = "5f0c2a91-7d3e-4b8a-9c1f-2e6d8a4b7c30";

describe("importClaudeCode", () => {
  const { transcripts, problems } = importClaudeCode(text, file);
  const [transcript] = transcripts;
  const calls = transcript?.calls ?? [];

  it("makes one call per API response, skipping sub-agent lines and Claude Code's own synthetic messages", () => {
    expect(transcript).toMatchObject({ id: session, format: "claude-code", model: "claude-sonnet-4-5-20250929", systemKnown: false, toolsKnown: false });
    expect(calls.map((call) => call.source.line)).toEqual([4, 11, 14]);
  });

  it("merges the lines of one response into one assistant message with the final usage", () => {
    expect(calls[0]?.response?.content.map((part) => part.type)).toEqual(["thinking", "text", "tool_call"]);
    expect(calls[0]?.response).toMatchObject({ stopReason: "tool_calls", rawStopReason: "tool_use", meta: { id: `${session}:msg_01AbC`, origin: "model" } });
    expect(calls[0]?.reportedUsage).toEqual({ promptTokens: 15203, cachedTokens: 11000, cacheWriteTokens: 4200, cacheWrite1hTokens: 0, completionTokens: 152 });
  });

  it("builds each request from the messages before the response, tool results as tool messages", () => {
    const messages = calls[2]?.request.messages ?? [];
    expect(messages.map((message) => `${message.role}/${message.meta.origin}`)).toEqual([
      "user/user",
      "assistant/model",
      "tool/tool",
      "assistant/model",
      "tool/tool",
      "user/harness",
    ]);
    expect(messages[4]).toMatchObject({ toolCallId: "toolu_02Bash", toolName: "Bash", isError: true, content: "Exit code 1\nFAIL test/api.test.ts" });
    expect(messages[2]).toMatchObject({ toolName: "Read", isError: false });
    expect(calls[2]?.request).toMatchObject({ system: { staticText: "" }, tools: [] });
  });

  it("keeps message ids and objects stable across calls", () => {
    const [first, second, third] = calls.map((call) => call.request.messages);
    expect(first?.[0]?.meta.id).toBe(`${session}:00000001-1111-4aaa-8bbb-000000000001`);
    expect(second?.[0]).toBe(first?.[0]);
    expect(third?.[1]).toBe(calls[0]?.response);
    expect(third?.slice(0, 3)).toEqual(second);
  });

  it("reports a line without its message and a truncated last line", () => {
    expect(problems).toEqual([
      { file, line: 17, reason: expect.stringContaining("truncated line") },
      { file, line: 16, reason: expect.stringContaining("a user line needs a string uuid and message.content") },
    ]);
  });

  it("follows the parent chain, so a rewound branch is not part of later requests", () => {
    const line = (uuid: string, parentUuid: string | null, type: string, content: unknown, id?: string) =>
      JSON.stringify({ type, uuid, parentUuid, sessionId: "s", timestamp: "2025-11-30T00:00:00.000Z", message: { role: type, content, id, model: "claude-opus-4-1" } });
    const branched = [
      line("u1", null, "user", "Rename the flag to --celsius."),
      line("a1", "u1", "assistant", [{ type: "text", text: "Which file?" }], "msg_A"),
      line("u2", "a1", "user", "src/cli.ts"),
      line("a2", "u2", "assistant", [{ type: "text", text: "Done." }], "msg_B"),
      line("u3", "a1", "user", "src/flags.ts, sorry"),
      line("a3", "u3", "assistant", [{ type: "text", text: "Done in src/flags.ts." }], "msg_C"),
    ].join("\n");
    const rewound = importClaudeCode(branched, "s.jsonl").transcripts[0]?.calls ?? [];
    expect(rewound[2]?.request.messages.map((message) => message.meta.id)).toEqual(["s:u1", "s:msg_A", "s:u3"]);
  });

  it("marks the first request after a compaction as a declared break", () => {
    const entry = (uuid: string, parentUuid: string | null, type: string, extra: Record<string, unknown>) =>
      JSON.stringify({ type, uuid, parentUuid, sessionId: "s", timestamp: "2025-11-30T00:00:00.000Z", ...extra });
    const message = (role: string, content: unknown, id?: string) => ({ message: { role, content, id, model: "claude-sonnet-4-5" } });
    const compacted = [
      entry("u1", null, "user", message("user", "Refactor the parser.")),
      entry("a1", "u1", "assistant", message("assistant", [{ type: "text", text: "Done." }], "msg_A")),
      entry("b1", null, "system", { subtype: "compact_boundary", content: "Conversation compacted" }),
      entry("u2", "b1", "user", { ...message("user", "This session is being continued from a previous conversation. Summary: parser refactored."), isCompactSummary: true }),
      entry("a2", "u2", "assistant", message("assistant", [{ type: "text", text: "Continuing." }], "msg_B")),
      entry("u3", "a2", "user", message("user", "Now the tests.")),
      entry("a3", "u3", "assistant", message("assistant", [{ type: "text", text: "Added." }], "msg_C")),
    ].join("\n");
    const calls = importClaudeCode(compacted, "s.jsonl").transcripts[0]?.calls ?? [];
    expect(calls.map((call) => call.declaredBreak)).toEqual([undefined, { reason: expect.stringContaining("compaction") }, undefined]);
    expect(calls[1]?.request.messages[0]?.meta.origin).toBe("harness");
  });

  it("imports a sub-agent file, whose lines are all sidechain lines", () => {
    const sidechain = text
      .split("\n")
      .filter((line) => line.includes('"isSidechain":true'))
      .join("\n");
    const [imported] = importClaudeCode(sidechain, "agent-ad2d877.jsonl").transcripts;
    expect(imported?.calls).toHaveLength(1);
    expect(imported?.meta).toMatchObject({ sidechain: true });
  });
});

describe("importClaudeCode on a real Claude Code 2.1.39 auto-compaction (43 recorded lines, origin in fixtures/README.md)", () => {
  const realFile = "fixtures/claude-code-2-1-39-compaction.jsonl";
  const { transcripts, problems } = importClaudeCode(readFileSync(new URL(realFile, import.meta.url), "utf8"), realFile);
  const [transcript] = transcripts;
  const calls = transcript?.calls ?? [];
  const usage = (input: number, read: number, write: number, output: number) => ({ promptTokens: input + read + write, cachedTokens: read, cacheWriteTokens: write, cacheWrite1hTokens: write, completionTokens: output });

  it("reads past progress, hook and compact_boundary lines: 4 API responses (8 lines) with their recorded usage", () => {
    expect(problems).toEqual([]);
    expect(transcript).toMatchObject({ id: "8463c716-a2ea-4c14-9efa-87158ebd9f20", model: "claude-opus-4-6" });
    expect(transcript?.notes).toBeUndefined();
    expect(calls.map((call) => call.reportedUsage)).toEqual([usage(1, 165028, 2065, 607), usage(3, 21445, 21155, 9), usage(1, 42600, 2392, 19), usage(1, 44992, 123, 1)]);
    expect(calls.flatMap((call) => call.response?.content.filter((part) => part.type === "tool_call").map((part) => part.name) ?? [])).toEqual(["Edit", "Bash", "Bash", "Bash"]);
  });

  it("starts the first request after the compaction at the summary, a declared break", () => {
    expect(calls.map((call) => call.declaredBreak?.reason)).toEqual([undefined, "Claude Code compaction (history replaced by a summary)", undefined, undefined]);
    expect(calls[1]?.request.messages.map((message) => [message.role, message.meta.origin])).toEqual([["user", "harness"]]);
    expect(calls[1]?.request.messages[0]?.content).toMatch(/^This session is being continued from a previous conversation/);
    expect(calls[1]?.response?.content.map((part) => part.type)).toEqual(["text", "thinking", "text", "tool_call"]);
    expect(calls[3]?.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "tool"]);
  });
});

describe("importClaudeCode on blocks it has no equivalent for", () => {
  it("counts server-side tool blocks in a note instead of dropping them silently", () => {
    const line = JSON.stringify({
      type: "assistant",
      uuid: "a1",
      parentUuid: null,
      sessionId: "s",
      message: {
        id: "msg_1",
        model: "claude-opus-4-6",
        content: [
          { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "ctxkit" } },
          { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
          { type: "text", text: "Found it." },
        ],
      },
    });
    const [transcript] = importClaudeCode(line, "s.jsonl").transcripts;
    expect(transcript?.calls[0]?.response?.content).toEqual([{ type: "text", text: "Found it." }]);
    expect(transcript?.notes).toEqual([expect.stringContaining("(server_tool_use ×1, web_search_tool_result ×1)")]);
  });
});

describe("importClaudeCode on a parent session that echoes its sub-agent", () => {
  it("does not count the sub-agent's responses from agent_progress lines, and says where they are", () => {
    // The shape of Claude Code 2.1.39's agent_progress lines (marot/spotter's recorded sessions; too large to keep).
    const progress = (uuid: string, messageId: string) =>
      JSON.stringify({ type: "progress", uuid, parentUuid: "a1", sessionId: "s", data: { type: "agent_progress", agentId: "a2898e3", prompt: "", message: { type: "assistant", uuid: `${uuid}m`, message: { id: messageId, model: "claude-sonnet-4-5-20250929", content: [] } } } });
    const lines = [
      JSON.stringify({ type: "user", uuid: "u1", parentUuid: null, sessionId: "s", message: { role: "user", content: "Explore." } }),
      JSON.stringify({ type: "assistant", uuid: "a1", parentUuid: "u1", sessionId: "s", message: { id: "msg_main", model: "claude-opus-4-6", content: [{ type: "tool_use", id: "t1", name: "Task", input: {} }] } }),
      progress("p1", "msg_sub1"),
      progress("p2", "msg_sub1"),
      progress("p3", "msg_sub2"),
    ];
    const [transcript] = importClaudeCode(lines.join("\n"), "s.jsonl").transcripts;
    expect(transcript?.calls).toHaveLength(1);
    expect(transcript?.notes).toEqual([
      "Sub-agent calls echoed in this file's progress lines are not counted here: agent-a2898e3 (2 responses); inspect the folder s/subagents/ beside this file for them.",
    ]);
  });
});

describe("importClaudeCode on parallel tool calls (a recorded Claude Code 2.1.7 sub-agent, see fixtures/README.md)", () => {
  // Four tool calls in one response; each result line's parent is the line of its own call, and the
  // next response continues from the last result only, so the other three hang off the parent chain.
  const parallelFile = "fixtures/claude-code-2-1-7-parallel-tools.jsonl";
  const [transcript] = importClaudeCode(readFileSync(new URL(parallelFile, import.meta.url), "utf8"), parallelFile).transcripts;
  const [first, second] = transcript?.calls ?? [];

  it("sends every result of a response's parallel calls with the next request, in the order they were written", () => {
    const calledIds = (first?.response?.content ?? []).flatMap((part) => (part.type === "tool_call" ? [part.id] : []));
    expect(calledIds).toHaveLength(4);
    const messages = second?.request.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "tool", "tool"]);
    expect(messages[1]).toBe(first?.response);
    expect(messages.slice(2).map((message) => (message.role === "tool" ? message.toolCallId : ""))).toEqual([
      "toolu_bdrk_01BrsVn3dprfXUudaGPQXzoN",
      "toolu_bdrk_01LMs4EbseoueRmSGCyoSfrN",
      "toolu_bdrk_01UoWJ1KSnr6MDLpHjDT9bcG",
      "toolu_bdrk_01F6FkgsnEnCEfrFV9F8NW65",
    ]);
    expect(new Set(messages.slice(2).map((message) => (message.role === "tool" ? message.toolName : "")))).toEqual(new Set(["Read", "Glob"]));
  });

  it("keeps the first request a prefix of the second", () => {
    expect(second?.request.messages.slice(0, first?.request.messages.length)).toEqual(first?.request.messages);
  });
});

describe("importClaudeCode on a response whose tools ran while it streamed (a recorded Claude Code 2.1.38 sub-agent, see fixtures/README.md)", () => {
  // Lines: thinking, text, tool_use kd5Z, a hook_progress line, kd5Z's result, tool_use FVNk (same
  // message.id, child of that result), FVNk's result, then the next response.
  const interleavedFile = "fixtures/claude-code-2-1-38-interleaved-results.jsonl";
  const [transcript] = importClaudeCode(readFileSync(new URL(interleavedFile, import.meta.url), "utf8"), interleavedFile).transcripts;
  const [first, second] = transcript?.calls ?? [];

  it("sends the response once, then its results, though its lines alternate with them", () => {
    const messages = second?.request.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(["assistant", "tool", "tool"]);
    expect(messages[0]).toBe(first?.response);
    expect(first?.response?.content.map((part) => part.type)).toEqual(["thinking", "text", "tool_call", "tool_call"]);
    expect(messages.slice(1).map((message) => (message.role === "tool" ? message.toolCallId.slice(-4) : ""))).toEqual(["kd5Z", "FVNk"]);
  });
});

describe("importClaudeCode on a response whose lines are split by hook progress lines (a recorded Claude Code 2.1.39 session, see fixtures/README.md)", () => {
  // The second tool_use line of the response is a child of the last of four PreToolUse hook_progress lines.
  const hookFile = "fixtures/claude-code-2-1-39-hook-progress-between-calls.jsonl";
  const [transcript] = importClaudeCode(readFileSync(new URL(hookFile, import.meta.url), "utf8"), hookFile).transcripts;
  const [first, second] = transcript?.calls ?? [];

  it("sends the response once, with both results after it", () => {
    const messages = second?.request.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool"]);
    expect(messages[1]).toBe(first?.response);
    expect(messages.slice(2).map((message) => (message.role === "tool" ? message.toolCallId.slice(-4) : ""))).toEqual(["Higa", "JFso"]);
  });
});

describe("importClaudeCode on a parent chain that loops (a corrupt file)", () => {
  it("ends every request's chain and still imports each response", () => {
    const line = (uuid: string, parentUuid: string, type: string, content: unknown, id?: string) =>
      JSON.stringify({ type, uuid, parentUuid, sessionId: "s", timestamp: "", message: { role: type, content, id, model: "claude-opus-4-6" } });
    const looped = [line("u1", "a2", "user", "Start."), line("a1", "u1", "assistant", [{ type: "text", text: "One." }], "msg_1"), line("u2", "a1", "user", "Next."), line("a2", "u2", "assistant", [{ type: "text", text: "Two." }], "msg_2")];
    const [transcript] = importClaudeCode(looped.join("\n"), "s.jsonl").transcripts;
    // The link that closes the loop is dropped (which one depends on line order): each chain ends, nothing repeats.
    expect(transcript?.calls.map((call) => call.response?.meta.id)).toEqual(["s:msg_1", "s:msg_2"]);
    for (const call of transcript?.calls ?? []) expect(new Set(call.request.messages).size).toBe(call.request.messages.length);
    expect(transcript?.calls[1]?.request.messages.map((message) => message.role)).toEqual(["assistant", "user"]);
  });
});

describe("importClaudeCode on a partial compaction ('Summarize from here', Claude Code 2.1.32+)", () => {
  it("marks the first request holding the summary as a declared break, though kept messages come before it", () => {
    // Claude Code rebuilds the conversation as [boundary, kept messages, summary] (anthropics/claude-code#26488).
    const entry = (uuid: string, parentUuid: string | null, type: string, extra: Record<string, unknown>) => JSON.stringify({ type, uuid, parentUuid, sessionId: "s", timestamp: "", ...extra });
    const message = (role: string, content: unknown, id?: string) => ({ message: { role, content, id, model: "claude-opus-4-6" } });
    const partial = [
      entry("u1", null, "user", message("user", "Fix the parser.")),
      entry("a1", "u1", "assistant", message("assistant", [{ type: "text", text: "Which one?" }], "msg_A")),
      entry("u2", "a1", "user", message("user", "The JSON one, and many details.")),
      entry("a2", "u2", "assistant", message("assistant", [{ type: "text", text: "Fixed." }], "msg_B")),
      entry("b1", null, "system", { subtype: "compact_boundary", content: "Conversation compacted" }),
      entry("k1", "b1", "user", message("user", "Fix the parser.")),
      entry("k2", "k1", "assistant", message("assistant", [{ type: "text", text: "Which one?" }], "msg_A")),
      entry("s1", "k2", "user", { ...message("user", "Summary: the JSON parser was fixed."), isCompactSummary: true }),
      entry("a3", "s1", "assistant", message("assistant", [{ type: "text", text: "Continuing." }], "msg_C")),
      entry("u3", "a3", "user", message("user", "Thanks.")),
      entry("a4", "u3", "assistant", message("assistant", [{ type: "text", text: "Welcome." }], "msg_D")),
    ].join("\n");
    const calls = importClaudeCode(partial, "s.jsonl").transcripts[0]?.calls ?? [];
    expect(calls.map((call) => call.response?.meta.id)).toEqual(["s:msg_A", "s:msg_B", "s:msg_C", "s:msg_D"]);
    expect(calls[2]?.request.messages.map((message) => message.meta.id)).toEqual(["s:k1", "s:msg_A", "s:s1"]);
    expect(calls.map((call) => call.declaredBreak?.reason)).toEqual([undefined, undefined, "Claude Code compaction (history replaced by a summary)", undefined]);
  });
});

/** A session line: a user line, or with a message id an assistant line (one API response). */
function sessionLine(uuid: string, parentUuid: string | null, content: unknown, id?: string): string {
  const role = id === undefined ? "user" : "assistant";
  return JSON.stringify({ type: role, uuid, parentUuid, sessionId: "s", timestamp: "", message: { role, content, id, model: "claude-opus-4-6" } });
}

describe("importClaudeCode on a retried response (two responses to the same line)", () => {
  it("gives each request its own message list, so changing one changes no other", () => {
    const retried = [
      sessionLine("u1", null, "Start."),
      sessionLine("a1", "u1", [{ type: "tool_use", id: "t1", name: "Read", input: {} }], "msg_1"),
      sessionLine("r1", "a1", [{ type: "tool_result", tool_use_id: "t1", content: "x" }]),
      sessionLine("a2", "r1", [{ type: "text", text: "Done." }], "msg_2"),
      sessionLine("a3", "r1", [{ type: "text", text: "Done, retried." }], "msg_3"),
    ].join("\n");
    const [, first, second] = importClaudeCode(retried, "s.jsonl").transcripts[0]?.calls ?? [];
    expect(first?.request.messages.map((message) => message.meta.id)).toEqual(["s:u1", "s:msg_1", "s:r1"]);
    expect(second?.request.messages).toEqual(first?.request.messages);
    expect(second?.request.messages).not.toBe(first?.request.messages);
    first?.request.messages.pop();
    expect(second?.request.messages).toHaveLength(3);
  });
});

describe("importClaudeCode on a tool call answered twice (a corrupt or hand-edited file)", () => {
  it("sends one answer, the first, even when the chain continues from the second", () => {
    const twice = [
      sessionLine("u1", null, "Start."),
      sessionLine("a1", "u1", [{ type: "tool_use", id: "t1", name: "Read", input: {} }], "msg_1"),
      sessionLine("r1", "a1", [{ type: "tool_result", tool_use_id: "t1", content: "first" }]),
      sessionLine("r2", "a1", [{ type: "tool_result", tool_use_id: "t1", content: "second" }]),
      sessionLine("a2", "r2", [{ type: "text", text: "Done." }], "msg_2"),
    ].join("\n");
    const calls = importClaudeCode(twice, "s.jsonl").transcripts[0]?.calls ?? [];
    expect(calls[1]?.request.messages.map((message) => message.meta.id)).toEqual(["s:u1", "s:msg_1", "s:r1"]);
  });
});
