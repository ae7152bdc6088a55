import { describe, expect, it } from "vitest";
import { assistant, request, toolResult, user } from "../test-support/transcript-builder.js";
import type { ImportedCall } from "../imported-transcript.js";
import { diffCalls } from "./call-diff.js";

const call = (value: ImportedCall["request"], extra: Partial<ImportedCall> = {}): ImportedCall => ({ request: value, source: { file: "test" }, ...extra });

describe("diffCalls", () => {
  it("reports an append-only step as appended messages only", () => {
    const task = user("Fix the bug.");
    const reply = assistant("Reading the file.");
    const result = toolResult("c1", "read_file", "contents");
    const diff = diffCalls(call(request("s", [task]), { response: reply }), call(request("s", [task, reply, result])));
    expect(diff).toMatchObject({ systemChanged: false, toolsChanged: false, keptMessages: 1, removed: [], replacements: [], changed: [] });
    expect(diff.appended).toEqual([reply, result]);
    expect(diff.compaction).toBeUndefined();
  });

  it("shows a declared compaction as the messages it replaced, what it wrote in their place, then what was appended", () => {
    const task = user("Research the founders.");
    const older = [assistant("Fetching page 1."), toolResult("c1", "fetch", "a long page"), assistant("Fetching page 2."), toolResult("c2", "fetch", "another long page")];
    const reply = assistant("Fetching page 3.");
    const summary = user("Summary: page 1 and 2 say X.", "harness");
    const next = [reply, toolResult("c3", "fetch", "page three")];
    const diff = diffCalls(
      call(request("s", [task, ...older]), { response: reply }),
      call(request("s", [task, summary, ...next]), { declaredBreak: { reason: "compaction: context at 95%" } }),
    );
    expect(diff.removed).toEqual(older);
    expect(diff.replacements).toEqual([summary]);
    expect(diff.appended).toEqual(next);
    expect(diff.compaction).toEqual({ reason: "compaction: context at 95%" });
  });

  it("lists a message edited under the same id as changed, and a changed system prompt and tail", () => {
    const task = user("Question");
    const edited = { ...task, content: "Question (edited)" };
    const diff = diffCalls(call(request("one", [task], [], user("status 1", "harness"))), call(request("two", [edited], [], user("status 2", "harness"))));
    expect(diff.changed).toEqual([{ previous: task, next: edited }]);
    expect(diff.systemChanged).toBe(true);
    expect(diff.tail).toMatchObject({ changed: true, previous: { content: "status 1" }, next: { content: "status 2" } });
  });
});
