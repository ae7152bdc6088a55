import { describe, expect, it } from "vitest";
import { ToolDefinitionError } from "../types/index.js";
import { compileArgumentValidators } from "./validate-tool-arguments.js";

const cityTool = { name: "city", description: "d", parameters: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false } };
const brokenTool = { name: "broken", description: "d", parameters: { type: "object" as const, properties: { city: { type: "no-such-type" } } } };

describe("compileArgumentValidators", () => {
  it("by default refuses a schema that does not compile when the validators are made", () => {
    expect(() => compileArgumentValidators([cityTool, brokenTool])).toThrow(ToolDefinitionError);
    expect(() => compileArgumentValidators([brokenTool])).toThrow(/'broken' has an invalid JSON Schema/);
  });

  it("lazy: checks the shape now, compiles on the first call, and the broken schema throws then", () => {
    expect(() => compileArgumentValidators([{ ...cityTool, parameters: { type: "string" } as never }], { eager: false })).toThrow(/object schema/);
    const validators = compileArgumentValidators([cityTool, brokenTool], { eager: false });
    expect(validators.get("city")!({ city: "Oslo" })).toEqual({ valid: true });
    expect(validators.get("city")!({ town: "Oslo" })).toEqual({ valid: false, problems: ["missing required argument 'city'", "unknown argument 'town'"] });
    expect(() => validators.get("broken")!({ city: "Oslo" })).toThrow(/'broken' has an invalid JSON Schema/);
  });

  it("keeps each schema its tool's own: two tools and two agents may use the same $id", () => {
    const withId = (name: string, type: string) => ({ name, description: "d", parameters: { $id: "https://example.com/args", type: "object" as const, properties: { value: { type } }, required: ["value"] } });
    const first = compileArgumentValidators([withId("a", "string"), withId("b", "number")]);
    const second = compileArgumentValidators([withId("a", "string")], { eager: false });
    expect(first.get("a")!({ value: "x" })).toEqual({ valid: true });
    expect(first.get("b")!({ value: "x" })).toEqual({ valid: false, problems: ["argument 'value' must be number"] });
    expect(second.get("a")!({ value: 1 })).toEqual({ valid: false, problems: ["argument 'value' must be string"] });
  });
});
