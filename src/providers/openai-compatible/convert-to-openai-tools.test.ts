import { describe, expect, it } from "vitest";
import { CtxkitError } from "../../types/index.js";
import { convertToOpenAITools } from "./convert-to-openai-tools.js";
import { weatherTool } from "./test-support/request-fixtures.js";

describe("convertToOpenAITools", () => {
  it("wraps each tool as a function with canonical (key-sorted) parameters", () => {
    const tools = convertToOpenAITools([weatherTool, { name: "list-files", description: "", parameters: { type: "object" } }]);
    expect(JSON.stringify(tools)).toBe(
      '[{"type":"function","function":{"name":"get_weather","description":"Current weather for a city.",' +
        '"parameters":{"properties":{"city":{"type":"string"}},"required":["city"],"type":"object"}}},' +
        '{"type":"function","function":{"name":"list-files","description":"","parameters":{"type":"object"}}}]',
    );
  });

  it("gives the same bytes for schemas built in a different key order", () => {
    const reordered = { ...weatherTool, parameters: { properties: { city: { type: "string" } }, type: "object", required: ["city"] } };
    expect(JSON.stringify(convertToOpenAITools([reordered]))).toBe(JSON.stringify(convertToOpenAITools([weatherTool])));
  });

  it.each([
    ["a name OpenAI rejects", [{ ...weatherTool, name: "get.weather" }], /get\.weather/],
    ["a duplicate name", [weatherTool, weatherTool], /defined twice/],
    ["parameters that are not an object", [{ ...weatherTool, parameters: [] as never }], /JSON Schema object/],
  ])("rejects %s with tool_definition_invalid", (_case, tools, message) => {
    expect(() => convertToOpenAITools(tools)).toThrowError(message);
    try {
      convertToOpenAITools(tools);
    } catch (error) {
      expect(error).toBeInstanceOf(CtxkitError);
      expect((error as CtxkitError).code).toBe("tool_definition_invalid");
    }
  });
});
