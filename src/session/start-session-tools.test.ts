import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent } from "../loop/create-agent.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { defineTool } from "../tools/tool.js";
import { rebuildRequest } from "./rebuild-request.js";
import { createSessionStore } from "./session-store.js";
import { startSession } from "./start-session.js";

const tool = (name: string) =>
  defineTool<Record<string, never>>({ name, description: `The ${name} tool.`, parameters: { type: "object", properties: {} }, execute: async () => "ok" });

describe("startSession with other tools than the agent sends", () => {
  it("records the tools the requests actually carried, so rebuildRequest gives them back", async () => {
    const store = createSessionStore({ directory: await mkdtemp(join(tmpdir(), "ctxkit-session-tools-")) });
    const provider = createScriptedProvider({ turns: ["Done."] });
    const sent = [tool("alpha"), tool("beta"), tool("gamma")];
    // The session is told about two tools; the agent is given three (README's own example did this).
    const { session } = await startSession(store, { system: "Be useful.", tools: sent.slice(0, 2), provider });
    await createAgent({ provider, system: "Be useful.", tools: sent, session }).run("go").result();
    await session.close();
    const loaded = await store.load(session.id);
    expect(rebuildRequest(loaded, 0).tools.map((definition) => definition.name)).toEqual(["alpha", "beta", "gamma"]);
    expect(loaded.prefixes.at(-1)?.reason).toContain("the agent's system prompt or tools differ from the session's");
  });

  it("writes no extra prefix record when the session was started with the tools that are sent", async () => {
    const store = createSessionStore({ directory: await mkdtemp(join(tmpdir(), "ctxkit-session-tools-")) });
    const provider = createScriptedProvider({ turns: ["Done."] });
    const tools = [tool("alpha")];
    const { session } = await startSession(store, { system: "Be useful.", tools, provider });
    await createAgent({ provider, system: "Be useful.", tools, session }).run("go").result();
    await session.close();
    expect((await store.load(session.id)).prefixes).toHaveLength(1);
  });
});
