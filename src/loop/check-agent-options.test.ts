import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../providers/scripted/index.js";
import type { AgentOptions } from "./agent-options.js";
import { createAgent } from "./create-agent.js";

// What plain JavaScript, a cast or settings read from a file can pass although the types forbid it.
const provider = () => createScriptedProvider({ turns: ["x"] });
const optionsOf = (value: unknown) => value as AgentOptions;

describe("createAgent refuses options the types forbid, with a typed error", () => {
  it("a missing provider is option_invalid naming how to make one, not a TypeError", () => {
    expect(() => createAgent(optionsOf({ system: "s" }))).toThrow(expect.objectContaining({ name: "ConfigError", code: "option_invalid", message: expect.stringContaining("createAgent needs `provider`") }));
  });

  it.each([undefined, null, 42, {}, { staticText: 1 }, { staticText: "s", sessionText: 2 }])("a system prompt of %j is refused instead of sending an empty one", (system) => {
    expect(() => createAgent(optionsOf({ provider: provider(), system }))).toThrow(expect.objectContaining({ code: "option_invalid", message: expect.stringContaining("createAgent needs `system`") }));
  });

  it("accepts a string and a { staticText, sessionText } prompt", () => {
    expect(createAgent({ provider: provider(), system: "s" }).prefix.system).toEqual({ staticText: "s" });
    expect(createAgent({ provider: provider(), system: { staticText: "s", sessionText: "t" } }).prefix.system).toEqual({ staticText: "s", sessionText: "t" });
  });

  it.each([0, -1, 1.5, Number.NaN])("runtime.maxIterations %s is refused (it used to stop every run at once)", (maxIterations) => {
    expect(() => createAgent({ provider: provider(), system: "s", runtime: { maxIterations } })).toThrow(expect.objectContaining({ code: "option_invalid", message: expect.stringContaining("runtime.maxIterations") }));
  });

  it("runtime.toolTimeoutMs must be positive", () => {
    expect(() => createAgent({ provider: provider(), system: "s", runtime: { toolTimeoutMs: -5 } })).toThrow(expect.objectContaining({ code: "option_invalid", message: expect.stringContaining("runtime.toolTimeoutMs") }));
  });
});
