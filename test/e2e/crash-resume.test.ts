import { spawnSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { createAgent, createSessionStore, rebuildRequest, startSession } from "../../src/index.js";
import { buildModelRequest } from "../../src/context/build-model-request.js";
import { createScriptedProvider } from "../../src/testing.js";
import type { SerializedRequest } from "../../src/index.js";

const dist = pathToFileURL(resolve("dist")).href;

// The child runs a real agent on the compiled package and SIGKILLs itself in the middle of model call 3.
const childScript = `
import { createAgent, createSessionStore, startSession } from "${dist}/index.js";
import { createScriptedProvider } from "${dist}/testing.js";
import { system, tools } from "./setup.mjs";
const store = createSessionStore({ directory: process.argv[2] });
const provider = createScriptedProvider({
  turns: (request, call) => {
    process.stdout.write(JSON.stringify(provider.bodies.at(-1)) + "\\n");
    if (call === 3) process.kill(process.pid, "SIGKILL");
    return { toolCalls: [{ name: "get_weather", arguments: { city: "C" + call } }, { name: "get_weather", arguments: { city: "D" + call } }] };
  },
});
const { session, messages } = await startSession(store, { system, tools, provider });
process.stdout.write(JSON.stringify({ sessionId: session.id }) + "\\n");
const agent = createAgent({ provider, system, tools, messages, session, maxIterations: 10 });
await agent.run("Weather everywhere, please.").result();
`;

const setupModule = `
export const system = { staticText: "You are a weather agent.", sessionText: "User: Ada, Vancouver" };
export const tools = [{
  name: "get_weather",
  description: "Current weather for a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  parallelSafe: true,
  execute: async ({ city }) => "sunny in " + city,
}];
`;

describe("crash and resume", () => {
  it("keeps everything flushed before a SIGKILL and resumes with byte-identical requests", async () => {
    const directory = await mkdtemp(join(tmpdir(), "ctxkit-crash-"));
    await writeFile(join(directory, "child.mjs"), childScript);
    await writeFile(join(directory, "setup.mjs"), setupModule);
    const child = spawnSync(process.execPath, [join(directory, "child.mjs"), join(directory, "sessions")], { encoding: "utf8" });
    expect(child.signal).toBe("SIGKILL");
    const lines = child.stdout.trim().split("\n").map((line) => JSON.parse(line) as { sessionId?: string } & SerializedRequest);
    const sessionId = lines[0]!.sessionId!;
    const sentBodies = lines.slice(1);
    expect(sentBodies).toHaveLength(4);

    const store = createSessionStore({ directory: join(directory, "sessions") });
    const loaded = await store.load(sessionId);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.requests).toHaveLength(4);
    expect(loaded.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "assistant", "tool", "tool", "assistant", "tool", "tool"]);

    // Every recorded call rebuilds to exactly the bytes the child sent.
    const { system, tools } = (await import(pathToFileURL(join(directory, "setup.mjs")).href)) as typeof import("./crash-resume-setup.js");
    const provider = createScriptedProvider({ turns: ["All sunny."] });
    for (const [index, sent] of sentBodies.entries()) {
      const rebuilt = rebuildRequest(loaded, index);
      const request = buildModelRequest({ prefix: { system: rebuilt.system, tools: rebuilt.tools }, trajectory: rebuilt.messages, ...(rebuilt.tail ? { tail: rebuilt.tail } : {}) });
      expect(provider.serialize(request)).toEqual(sent);
    }

    // Resuming continues the same byte prefix: the interrupted call's body is a prefix of the next one.
    const resumed = await startSession(store, { id: sessionId, system, tools, provider });
    expect(resumed.prefixChanged).toBe(false);
    const agent = createAgent({ provider, system, tools, messages: resumed.messages, session: resumed.session });
    const result = await agent.run("Continue.").result();
    await resumed.session.close();
    expect(result.finalText).toBe("All sunny.");
    const interrupted = sentBodies[3]!;
    expect(provider.bodies[0]!.body.startsWith(interrupted.body.slice(0, interrupted.prefixLength))).toBe(true);
    const reloaded = await store.load(sessionId);
    expect(reloaded.requests).toHaveLength(5);
    expect(reloaded.messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "All sunny." }] });
  });
});
