import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../../types/index.js";
import { createTranscriptAnalyzer } from "../analysis/analyze-transcript.js";
import type { ImportedTranscript } from "../imported-transcript.js";
import { appendOnlyRequests, assistant, request, thinking, tool, toolCall, toolResult, transcriptOf, user } from "../test-support/transcript-builder.js";

// The estimator keeps these tests fast; findings do not depend on the tokenizer.
const analyze = (transcript: ImportedTranscript) => createTranscriptAnalyzer({ tokenizer: "estimate" }).analyze(transcript);
const conversation = [user("Find a flight."), assistant("Searching."), user("To Paris."), assistant("Found one."), user("Book it."), assistant("Booked.")];

describe("findings", () => {
  it("finds a timestamp in the system prompt and shows the changing text", () => {
    const requests = appendOnlyRequests("policy", conversation).map((value, call) => ({
      ...value,
      system: { staticText: `Current time: 2025-09-14 10:3${call}:00\nYou book flights.` },
    }));
    const [finding] = analyze(transcriptOf(requests)).findings;
    expect(finding).toMatchObject({ code: "dynamic_system_prompt", severity: "high", calls: [1, 2], evidence: { changes: 2, looksLikeTimestamp: true } });
    expect(finding!.message).toContain("10:30");
    expect(finding!.message).toContain("10:31");
    expect((finding!.evidence.examples as Array<{ previous: string; next: string }>)[0]).toMatchObject({ previous: expect.stringContaining("10:30:00"), next: expect.stringContaining("10:31:00") });
  });

  it("finds tools sent in a different order", () => {
    const tools = [tool("book"), tool("cancel"), tool("search")];
    const requests = appendOnlyRequests("s", conversation, tools).map((value, call) => ({ ...value, tools: call === 1 ? [...tools].reverse() : tools }));
    const findings = analyze(transcriptOf(requests)).findings;
    expect(findings.map((finding) => finding.code)).toEqual(["tools_reordered"]);
    expect(findings[0]).toMatchObject({ calls: [1, 2], evidence: { example: { before: ["book", "cancel", "search"], after: ["search", "cancel", "book"] } } });
  });

  it("finds history flattened into one text message", () => {
    const flattened = (end: number): ModelRequest =>
      request("s", [user(conversation.slice(0, end).map((message) => `${message.role.toUpperCase()}: ${message.role === "user" ? message.content : "…"}`).join("\n"))]);
    const findings = analyze(transcriptOf([flattened(1), flattened(3), flattened(5)])).findings;
    expect(findings.map((finding) => finding.code)).toEqual(["flattened_history"]);
    expect(findings[0]).toMatchObject({ calls: [1, 2], evidence: { messages: 2, roles: ["user", "assistant"] } });
  });

  it("does not take a quoted 'User:' line for a flattened history", () => {
    const requests = appendOnlyRequests("s", [user("The error says:\nUser: not found"), assistant("ok")]);
    expect(analyze(transcriptOf(requests)).findings).toEqual([]);
  });

  it("counts tool output sent as user messages (mini-swe-agent observations)", () => {
    const messages = [
      user("Fix the bug."),
      assistant("THOUGHT: look\n```bash\nls\n```"),
      user("<returncode>0</returncode>\n<output>\nsrc\n</output>", "tool"),
      assistant("THOUGHT: read\n```bash\ncat src/a.py\n```"),
      user("<returncode>1</returncode>\n<output>\nNo such file\n</output>"),
      assistant("done"),
    ];
    const findings = analyze(transcriptOf(appendOnlyRequests("s", messages))).findings;
    expect(findings.map((finding) => finding.code)).toEqual(["tool_output_in_user_messages"]);
    expect(findings[0]).toMatchObject({ calls: [1, 2], evidence: { toolOutputsInUserMessages: 2, userMessages: 3 } });
  });

  it("finds an earlier message that changes between calls (a profile kept in the history)", () => {
    const requests = appendOnlyRequests("s", conversation).map((value, call) => ({ ...value, messages: [user(`<profile>balance: ${100 - call}</profile>`, "harness"), ...value.messages] }));
    const findings = analyze(transcriptOf(requests)).findings;
    expect(findings.map((finding) => finding.code)).toEqual(["changed_earlier_message"]);
    expect(findings[0]).toMatchObject({ calls: [1, 2], evidence: { messageIndexes: [0] } });
  });

  it("finds reasoning dropped from a tool loop for a model that requires it, and only then", () => {
    const response = assistant("", [thinking("I should search."), toolCall("c1", "search", { query: "x" })]);
    const replayed = { ...response, content: response.content.filter((part) => part.type !== "thinking"), meta: { ...response.meta, id: "replayed" } };
    const first = request("s", [user("go")], [tool("search")]);
    const second = request("s", [user("go"), replayed, toolResult("c1", "search", "result")], [tool("search")]);
    const transcript = (model: string) => transcriptOf([first, second], { model, responses: [response, undefined] });
    expect(analyze(transcript("deepseek-chat")).findings).toEqual([expect.objectContaining({ code: "reasoning_dropped", calls: [1], severity: "high" })]);
    expect(analyze(transcript("gpt-4o")).findings).toEqual([]);
  });
});
