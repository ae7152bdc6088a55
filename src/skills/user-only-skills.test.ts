import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createAgent } from "../loop/create-agent.js";
import { createTestClock } from "../loop/test-support.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import type { ToolMessage, UserMessage } from "../types/index.js";
import { createSkillsPolicy } from "./create-skills-policy.js";
import { loadSkills } from "./load-skills.js";

// Real skills from mattpocock/skills (MIT; see fixtures/README.md): 24 of its 41 skills set
// `disable-model-invocation: true` — only the person may start them, by typing /name.
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "mattpocock-skills");

describe("skills whose SKILL.md sets disable-model-invocation", () => {
  it("load with the flag, and the others without it", async () => {
    const catalog = await loadSkills({ directories: [fixtures], includeDefaultDirectories: false });
    expect(catalog.warnings).toEqual([]);
    expect(catalog.skills.map((skill) => [skill.name, skill.disableModelInvocation === true])).toEqual([
      ["grill-me", true],
      ["handoff", true],
      ["tdd", false],
    ]);
  });

  it("stay out of the model's catalog and its skill tool, and start when the person types /name", async () => {
    const catalog = await loadSkills({ directories: [fixtures], includeDefaultDirectories: false });
    const provider = createScriptedProvider({
      turns: [{ toolCalls: [{ id: "call_handoff", name: "skill", arguments: { name: "handoff" } }] }, "Not allowed, fine.", "Handoff written."],
    });
    const policy = createSkillsPolicy(catalog);
    const agent = createAgent({ provider, system: "s", context: [policy], prefixGuard: { strict: true }, runtime: { clock: createTestClock() } });
    await agent.run("wrap up").result();

    const listing = provider.requests[0]!.system.sessionText!;
    expect(listing).toContain("<name>tdd</name>");
    expect(listing).not.toContain("handoff");
    expect(listing).not.toContain("grill-me");
    const refused = provider.requests[1]!.messages.find((message): message is ToolMessage => message.role === "tool")!;
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain("only the person can start it by typing /handoff");
    expect(provider.requests[1]!.messages.some((message) => message.role === "user" && message.content.includes("<skill name=\"handoff\""))).toBe(false);
    expect(policy.activeSkills(agent.messages)).toEqual([]);

    await agent.run("/handoff the next session writes tests").result();
    const typed = provider.requests[2]!.messages.at(-1) as UserMessage;
    expect(typed.content).toContain("<skill name=\"handoff\"");
    expect(typed.content.endsWith("ARGUMENTS: the next session writes tests")).toBe(true);
    expect(policy.activeSkills(agent.messages)).toEqual(["handoff"]);
  });
});
