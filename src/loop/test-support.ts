import { defineTool, ToolError } from "../tools/tool.js";

/** A deterministic clock that advances one second per reading. */
export function createTestClock(start = "2026-01-01T00:00:00.000Z"): () => Date {
  let time = Date.parse(start);
  return () => new Date((time += 1000));
}

export function createTestIds(prefix = "id"): () => string {
  let counter = 0;
  return () => `${prefix}_${counter++}`;
}

export const weatherTool = defineTool<{ city: string }>({
  name: "get_weather",
  description: "Current weather for a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
  parallelSafe: true,
  async execute({ city }) {
    return JSON.stringify({ city, temperatureC: city.length });
  },
});

export const failingTool = defineTool<{ path: string }>({
  name: "read_secret",
  description: "Reads a secret; always fails in tests.",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  async execute({ path }) {
    throw new ToolError("not_found", `No secret at ${path}.`);
  },
});

export const crashingTool = defineTool<Record<string, never>>({
  name: "crash",
  description: "Throws a plain Error.",
  parameters: { type: "object", properties: {} },
  async execute() {
    throw new Error("disk on fire");
  },
});
