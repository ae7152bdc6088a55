import { describe, expect, it } from "vitest";
import { convertToAnthropicTools } from "./convert-to-anthropic-tools.js";

describe("convertToAnthropicTools", () => {
  it("gives name, description, input_schema with the schema's keys sorted", () => {
    const tools = convertToAnthropicTools([
      { name: "grep", description: "Search.", parameters: { type: "object", properties: { pattern: { type: "string", description: "regex" } }, required: ["pattern"] } },
    ]);
    expect(JSON.stringify(tools)).toBe(
      '[{"name":"grep","description":"Search.","input_schema":{"properties":{"pattern":{"description":"regex","type":"string"}},"required":["pattern"],"type":"object"}}]',
    );
  });
});
