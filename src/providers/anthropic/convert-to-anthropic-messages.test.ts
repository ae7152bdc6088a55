import { describe, expect, it } from "vitest";
import { convertToAnthropicMessages } from "./convert-to-anthropic-messages.js";
import { assistant, call, status, text, toolResult, user } from "./test-support/fixtures.js";

describe("convertToAnthropicMessages", () => {
  it("sends user text as a block array, never a bare string", () => {
    expect(JSON.stringify(convertToAnthropicMessages([user("hi")]).messages)).toBe(
      '[{"role":"user","content":[{"type":"text","text":"hi"}]}]',
    );
  });

  it("keeps assistant blocks in order and returns thinking blocks unchanged", () => {
    const result = convertToAnthropicMessages([
      user("q"),
      assistant(
        { type: "thinking", thinking: "Let me think…\n", signature: "EqQBCgIYAhIM+/sig==" },
        { type: "thinking", thinking: "", redactedData: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT" },
        text("Reading."),
        call("toolu_1", '{"path":"a.txt"}'),
      ),
    ]);
    expect(JSON.stringify(result.messages[1])).toBe(
      '{"role":"assistant","content":[' +
        '{"type":"thinking","thinking":"Let me think…\\n","signature":"EqQBCgIYAhIM+/sig=="},' +
        '{"type":"redacted_thinking","data":"EmwKAhgBEgy3va3pzix/LafPsn4aDFIT"},' +
        '{"type":"text","text":"Reading."},' +
        '{"type":"tool_use","id":"toolu_1","name":"read_file","input":{"path":"a.txt"}}]}',
    );
  });

  it("sends {} as the input of a call whose arguments were invalid JSON or not an object", () => {
    const result = convertToAnthropicMessages([user("q"), assistant(call("toolu_1", '{"path":'), call("toolu_2", "[1]"))]);
    expect(result.messages[1]?.content).toEqual([
      { type: "tool_use", id: "toolu_1", name: "read_file", input: {} },
      { type: "tool_use", id: "toolu_2", name: "read_file", input: {} },
    ]);
  });

  it("drops unsigned thinking and empty text, and skips an assistant turn left empty", () => {
    const result = convertToAnthropicMessages([user("a"), assistant({ type: "thinking", thinking: "x" }, text("")), user("b")]);
    expect(result.messages).toEqual([{ role: "user", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }]);
    expect(result.wireIndexOf).toEqual([0, 0, 0]);
  });

  it("merges consecutive tool results, a following user message and the tail into one user message", () => {
    const result = convertToAnthropicMessages(
      [user("q"), assistant(call("toolu_1", "{}"), call("toolu_2", "{}")), toolResult("toolu_1", "one"), toolResult("toolu_2", "boom", true), user("and?")],
      status("[status] turn 2"),
    );
    expect(JSON.stringify(result.messages[2])).toBe(
      '{"role":"user","content":[' +
        '{"type":"tool_result","tool_use_id":"toolu_1","content":"one"},' +
        '{"type":"tool_result","tool_use_id":"toolu_2","content":"boom","is_error":true},' +
        '{"type":"text","text":"and?"},' +
        '{"type":"text","text":"[status] turn 2"}]}',
    );
    expect(result.wireIndexOf).toEqual([0, 1, 2, 2, 2]);
    expect(result.tail).toEqual({ messageIndex: 2, blockIndex: 3 });
  });

  it("puts the tail in its own user message after an assistant message", () => {
    const result = convertToAnthropicMessages([user("q"), assistant(text("a"))], status("s"));
    expect(result.messages[2]).toEqual({ role: "user", content: [{ type: "text", text: "s" }] });
    expect(result.tail).toEqual({ messageIndex: 2, blockIndex: 0 });
  });

  it("sends a system message inside the trajectory as user text", () => {
    const result = convertToAnthropicMessages([
      { role: "system", content: "Summary so far: …", meta: { id: "s", origin: "harness", createdAt: "" } },
    ]);
    expect(result.messages).toEqual([{ role: "user", content: [{ type: "text", text: "Summary so far: …" }] }]);
  });

  it("does not mutate its input", () => {
    const trajectory = [user("q"), toolResult("t", "r")];
    const copy = structuredClone(trajectory);
    convertToAnthropicMessages(trajectory, status("s"));
    expect(trajectory).toEqual(copy);
  });
});
