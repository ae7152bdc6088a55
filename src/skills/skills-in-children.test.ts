import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createExploreAgent, createForkAgent } from "../agents/builtin-agents.js";
import { createTaskTool } from "../agents/create-task-tool.js";
import { createAgent } from "../loop/create-agent.js";
import { createTestClock, createTestIds } from "../loop/test-support.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import type { ModelRequest } from "../types/index.js";
import { createSkillsPolicy } from "./create-skills-policy.js";
import { loadSkills } from "./load-skills.js";

// Real skills (mattpocock/skills, MIT; see fixtures/README.md).
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "mattpocock-skills");
const tddBodyStart = "# Test-Driven Development";
const lastMessage = (request: ModelRequest) => request.messages.at(-1)!;

describe("skills in a sub-agent", () => {
  it("a fork that calls the skill tool gets the body after the result, as its parent would; the parent's prefix is unchanged", async () => {
    const catalog = await loadSkills({ directories: [fixtures], includeDefaultDirectories: false });
    const provider = createScriptedProvider({
      turns: [
        { toolCalls: [{ id: "call_task", name: "task", arguments: { agent: "fork", description: "tdd side task", prompt: "Write the failing test first." } }] },
        { toolCalls: [{ id: "call_skill", name: "skill", arguments: { name: "tdd" } }] },
        "Fork done.",
        "Parent done.",
      ],
    });
    const task = createTaskTool({ agents: [createForkAgent()], provider, clock: createTestClock(), createId: createTestIds("child") });
    const policy = createSkillsPolicy(catalog);
    const agent = createAgent({ provider, system: "s", tools: [task], context: [policy], prefixGuard: { strict: true }, runtime: { clock: createTestClock(), createId: createTestIds() } });
    const result = await agent.run("go").result();

    expect(result.stopReason).toBe("final_answer");
    const forkAfterSkill = provider.requests[2]!;
    expect(forkAfterSkill.messages.at(-2)).toMatchObject({ role: "tool", content: "Loaded skill 'tdd'. Its instructions follow in the next message." });
    const body = lastMessage(forkAfterSkill);
    expect(body.role).toBe("user");
    expect(body.content).toContain(tddBodyStart);
    // The fork kept the parent's prefix: same system prompt and tools.
    expect(forkAfterSkill.system).toEqual(provider.requests[0]!.system);
    expect(forkAfterSkill.tools).toEqual(provider.requests[0]!.tools);
    // The skill was the fork's: the parent's conversation does not have it active.
    expect(policy.activeSkills(agent.messages)).toEqual([]);
    expect(provider.bodies[3]!.body.startsWith(provider.bodies[0]!.body.slice(0, provider.bodies[0]!.prefixLength))).toBe(true);
  });

  it("a fork's prompt is the model's words, not the person's: '/handoff' in it starts no skill (handoff is user-only)", async () => {
    const catalog = await loadSkills({ directories: [fixtures], includeDefaultDirectories: false });
    const provider = createScriptedProvider({
      turns: [{ toolCalls: [{ id: "call_task", name: "task", arguments: { agent: "fork", description: "handoff", prompt: "/handoff next session" } }] }, "Fork done.", "Parent done."],
    });
    const task = createTaskTool({ agents: [createForkAgent()], provider, clock: createTestClock(), createId: createTestIds("child") });
    const agent = createAgent({ provider, system: "s", tools: [task], context: [createSkillsPolicy(catalog)], runtime: { clock: createTestClock(), createId: createTestIds() } });
    await agent.run("go").result();
    const forkFirst = provider.requests[1]!;
    expect(lastMessage(forkFirst)).toMatchObject({ role: "user", content: "/handoff next session" });
    expect(JSON.stringify(forkFirst.messages)).not.toContain("<skill name=");
  });

  it("an explore child gets no skills", async () => {
    const catalog = await loadSkills({ directories: [fixtures], includeDefaultDirectories: false });
    const child = createScriptedProvider({ turns: ["Nothing found."] });
    const parent = createScriptedProvider({
      turns: [{ toolCalls: [{ id: "call_task", name: "task", arguments: { agent: "explore", description: "look", prompt: "Find tests." } }] }, "Done."],
    });
    const task = createTaskTool({ agents: [createExploreAgent({ tools: [] })], provider: child, clock: createTestClock(), createId: createTestIds("child") });
    const agent = createAgent({ provider: parent, system: "s", tools: [task], context: [createSkillsPolicy(catalog)], runtime: { clock: createTestClock(), createId: createTestIds() } });
    await agent.run("go").result();
    expect(child.requests[0]!.system.sessionText ?? "").not.toContain("available_skills");
    expect(child.requests[0]!.tools.map((tool) => tool.name)).toEqual([]);
  });
});
