import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importCtxkitSession } from "./import-ctxkit-session.js";

// The session store's pinned format fixtures: every v1 file must import forever.
const basicFile = "../../session/fixtures/v1-basic.jsonl";
const basic = readFileSync(new URL(basicFile, import.meta.url), "utf8");
const torn = readFileSync(new URL("../../session/fixtures/v1-torn.jsonl", import.meta.url), "utf8");

describe("importCtxkitSession", () => {
  it("imports one call per request record, exactly as it was sent", () => {
    const { transcripts, problems } = importCtxkitSession(basic, basicFile);
    expect(problems).toEqual([]);
    const [transcript] = transcripts;
    expect(transcript).toMatchObject({ id: "20261130-041502-a1b2c3", format: "ctxkit", model: "claude-sonnet-4-5", toolsKnown: true, systemKnown: true });
    const calls = transcript?.calls ?? [];
    expect(calls.map((call) => call.source)).toEqual([
      { file: basicFile, line: 5 },
      { file: basicFile, line: 9 },
    ]);
    const request = calls[1]?.request;
    expect(request?.system.sessionText).toBe("The user is Mei. Workspace: /home/dev/projects/weather-cli (Linux).");
    expect(request?.tools.map((tool) => tool.name)).toEqual(["read_file", "run_command"]);
    expect(request?.messages.map((message) => message.meta.id)).toEqual(["msg-0001", "msg-0002", "msg-0003"]);
    expect(request?.tail?.content).toContain("[status] call 2");
  });

  it("pairs each call with the assistant message that followed and the usage recorded for it", () => {
    const calls = importCtxkitSession(basic, basicFile).transcripts[0]?.calls ?? [];
    expect(calls[0]?.response?.meta.id).toBe("msg-0002");
    expect(calls[1]?.request.messages[1]).toBe(calls[0]?.response);
    expect(calls[1]?.reportedUsage).toEqual({ promptTokens: 1530, cachedTokens: 1180, cacheWriteTokens: 326, completionTokens: 58 });
  });

  it("reports a torn last line and keeps every intact record", () => {
    const { transcripts, problems } = importCtxkitSession(torn, "torn.jsonl");
    expect(transcripts[0]?.calls).toHaveLength(1);
    expect(problems).toEqual([{ file: "torn.jsonl", line: 6, reason: expect.stringContaining("cut off mid-write") }]);
  });

  it("imports the records before a damaged line and reports that line", () => {
    const lines = basic.split("\n");
    lines[7] = '{"type":"message","message":{"role":"tool"}}';
    const { transcripts, problems } = importCtxkitSession(lines.join("\n"), "damaged.jsonl");
    expect(problems).toEqual([{ file: "damaged.jsonl", line: 8, reason: expect.stringContaining("corrupt at line 8") }]);
    expect(transcripts[0]?.calls).toHaveLength(1);
  });

  it("ignores blank lines at the end of the file", () => {
    const { transcripts, problems } = importCtxkitSession(`${basic}\n\n`, "blank.jsonl");
    expect(problems).toEqual([]);
    expect(transcripts[0]?.calls).toHaveLength(2);
  });

  it("reports a stray blank line between records and keeps the calls before it", () => {
    const lines = basic.trimEnd().split("\n");
    const { transcripts, problems } = importCtxkitSession(`${[...lines.slice(0, -1), "", lines.at(-1)].join("\n")}\n`, "blank.jsonl");
    expect(problems).toEqual([{ file: "blank.jsonl", line: lines.length, reason: expect.stringContaining("empty line") }]);
    expect(transcripts[0]?.calls).toHaveLength(2);
  });

  it("marks a request sent after a context edit as a declared break, with the edit's reason", () => {
    const file = "../../session/fixtures/v2-context-edit.jsonl";
    const calls = importCtxkitSession(readFileSync(new URL(file, import.meta.url), "utf8"), file).transcripts[0]?.calls ?? [];
    expect(calls.map((call) => call.declaredBreak)).toEqual([undefined, undefined, { reason: expect.stringMatching(/./) }]);
    expect(calls[1]?.response?.meta.id).toBe("msg-0004");
  });

  it("reports a file that is not a ctxkit session", () => {
    const { transcripts, problems } = importCtxkitSession('{"type":"header","format":"other"}\n', "other.jsonl");
    expect(transcripts).toEqual([]);
    expect(problems).toEqual([{ file: "other.jsonl", reason: expect.stringContaining("is not a ctxkit session file") }]);
  });
});
