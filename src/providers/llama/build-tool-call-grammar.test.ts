import { describe, expect, it } from "vitest";
import { buildToolCallGrammar, toToolCallSchema } from "./build-tool-call-grammar.js";

// The shape node-llama-cpp 3.21.1's createGrammarForJsonSchema returns (recorded from it).
const callJsonGrammar = [
  'root ::= ( rule1 | rule3 ) "\\n\\n\\n\\n" [\\n]*',
  'val0 ::= "\\"lookup\\""',
  'rule1 ::= "{" "\\"name\\"" ":" [ ]? val0 "}"',
].join("\n");

describe("toToolCallSchema", () => {
  const tools = [
    { name: "lookup", description: "", parameters: { type: "object", properties: { key: { type: "string", enum: ["a", "b"] }, limit: { type: "integer", minimum: 1 } }, required: ["key"] } },
    { name: "note", description: "", parameters: { type: "object", properties: {} } },
  ];

  it("lists one call object per active tool, with only required parameters in keywords the grammar knows", () => {
    expect(toToolCallSchema(tools, new Set(["lookup"]))).toEqual({
      oneOf: [{ type: "object", properties: { name: { const: "lookup" }, arguments: { type: "object", properties: { key: { enum: ["a", "b"] } } } } }],
    });
  });

  it("refuses an active set that names no tool of the request", () => {
    expect(() => toToolCallSchema(tools, new Set(["missing"]))).toThrow(/No active tool/);
  });
});

describe("buildToolCallGrammar", () => {
  it("wraps the call JSON in Qwen3's tags, from the first token or after a generated <tool_call>", () => {
    const fromStart = buildToolCallGrammar(callJsonGrammar, "response", 1).split("\n");
    expect(fromStart[0]).toBe('root ::= "<tool_call>" "\\n" call-json "\\n</tool_call>"');
    expect(fromStart[1]).toBe("call-json ::= ( rule1 | rule3 )");
    const afterOpen = buildToolCallGrammar(callJsonGrammar, "after_open_tag", 3).split("\n");
    expect(afterOpen[0]).toBe('root ::= "\\n" call-json "\\n</tool_call>" ( "\\n<tool_call>" "\\n" call-json "\\n</tool_call>" ){0,2}');
  });

  it("names the supported version when node-llama-cpp's grammar has another shape", () => {
    expect(() => buildToolCallGrammar("root ::= object", "response", 1)).toThrow(/node-llama-cpp@3\.21\.1/);
  });
});
