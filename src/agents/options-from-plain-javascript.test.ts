import { describe, expect, it } from "vitest";
import { createSessionStore } from "../session/index.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { ConfigError } from "../types/index.js";
import { assembleAgent, type AssembleAgentOptions } from "./assemble-agent.js";
import { createExploreAgent, createForkAgent } from "./builtin-agents.js";
import { createTaskTool } from "./create-task-tool.js";

// From plain JavaScript (or through a cast) assembleAgent failed with a TypeError from deep inside:
// "Cannot read properties of undefined (reading 'nativeToolSearch')" for a missing provider, and
// "(reading 'load')" for a session without a store. Each is a ConfigError naming the option now.
const refusal = (options: unknown) => assembleAgent(options as AssembleAgentOptions).then(() => undefined, (error: unknown) => error);

describe("assembleAgent's options, checked before anything runs", () => {
  it("names a missing provider", async () => {
    const error = await refusal({ system: "s" });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ code: "option_invalid", message: expect.stringContaining("assembleAgent needs `provider`") });
  });

  it("names a session without a store, and a mode it does not know", async () => {
    const provider = createScriptedProvider({ turns: ["x"] });
    expect(await refusal({ provider, system: "s", session: { mode: "resume", id: "20260101-000000-abcdef" } })).toMatchObject({ name: "ConfigError", code: "option_invalid", message: expect.stringContaining("`session` needs `store`") });
    const store = createSessionStore({ directory: "/tmp/ctxkit-never-written" });
    expect(await refusal({ provider, system: "s", session: { store, mode: "latest" } })).toMatchObject({ code: "option_invalid", message: expect.stringContaining('got "latest"') });
  });
});

describe("createTaskTool and createExploreAgent from plain JavaScript", () => {
  it("name what is missing instead of a TypeError", () => {
    expect(() => createTaskTool({} as never)).toThrow(expect.objectContaining({ code: "tool_definition_invalid", message: expect.stringContaining("createTaskTool needs `agents`") }));
    expect(() => createTaskTool({ agents: [createForkAgent()] } as never)).toThrow(expect.objectContaining({ code: "tool_definition_invalid", message: expect.stringContaining("createTaskTool needs `provider`") }));
    expect(() => createExploreAgent({} as never)).toThrow(expect.objectContaining({ name: "ConfigError", code: "option_invalid", message: expect.stringContaining("createExploreAgent needs `tools`") }));
  });
});
