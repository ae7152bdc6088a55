import { describe, expect, expectTypeOf, it } from "vitest";
import { defineTool, type Tool, type ToolArguments } from "./tool.js";

const weatherSchema = {
  type: "object",
  properties: { city: { type: "string" }, days: { type: "integer" }, units: { enum: ["metric", "imperial"] } },
  required: ["city"],
  additionalProperties: false,
} as const;

describe("defineTool", () => {
  it("infers the arguments of execute from a literal schema", async () => {
    const tool = defineTool({
      name: "get_weather",
      description: "Weather for a city.",
      parameters: weatherSchema,
      execute: async (args) => `${args.city.toUpperCase()} ${args.days ?? 1}`,
    });
    type WeatherArguments = Parameters<typeof tool.execute>[0];
    expectTypeOf<WeatherArguments>().toEqualTypeOf<{ city: string; days?: number; units?: "metric" | "imperial" }>();
    expectTypeOf<ToolArguments<typeof weatherSchema>>().toEqualTypeOf<WeatherArguments>();
    expect(await tool.execute({ city: "Oslo" }, { signal: new AbortController().signal, toolCallId: "c" })).toBe("OSLO 1");
  });

  it("infers from a schema written inline, without as const", () => {
    const tool = defineTool({
      name: "add",
      description: "Adds numbers.",
      parameters: { type: "object", properties: { values: { type: "array", items: { type: "number" } } }, required: ["values"] },
      execute: async ({ values }) => String(values.reduce((sum, value) => sum + value, 0)),
    });
    expect(tool.name).toBe("add");
    expectTypeOf<Parameters<typeof tool.execute>[0]>().toEqualTypeOf<{ [key: string]: unknown; values: number[] }>();
  });

  it("keeps an explicit argument type working", () => {
    const tool = defineTool<{ path: string }>({
      name: "read",
      description: "Reads a file.",
      parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      execute: async ({ path }) => path,
    });
    expectTypeOf(tool).toEqualTypeOf<Tool<{ path: string }>>();
    // @ts-expect-error -- the explicit type has no `size`
    tool.execute({ path: "a", size: 1 }, { signal: new AbortController().signal, toolCallId: "c" });
  });
});
