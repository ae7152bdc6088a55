import { describe, expect, it } from "vitest";
import { createCompression } from "../src/context/compression/index.js";
import { fetchTool, researchUrls } from "../src/context/compression/test-support/research-task.js";
import { createAgent } from "../src/loop/create-agent.js";
import { createTestClock } from "../src/loop/test-support.js";
import { createScriptedProvider } from "../src/providers/scripted/index.js";
import { createSkillsPolicy, loadSkills } from "../src/skills/index.js";
import { skillMarkdown, writeSkillFolders } from "../src/skills/test-support/skill-folders.js";
import { ContextOverflowError, derivedOf } from "../src/types/index.js";

const citeBody = `# Cite sources\n\nEvery fact gets the URL it came from, in brackets. CITE-RULE-7.`;

describe("skills across a real compaction", () => {
  it("keeps an active skill's body in every request after a full compaction removed the message that held it", async () => {
    const root = await writeSkillFolders({ cite: skillMarkdown("cite", "Cite every fact with its URL. Use when reporting research. Do not use for code.", citeBody) });
    const catalog = await loadSkills({ directories: [root], includeDefaultDirectories: false });
    const window = 20_000;
    let step = 0;
    const plan = [[researchUrls[0]!], [researchUrls[1]!, researchUrls[2]!], [researchUrls[3]!], [researchUrls[4]!, researchUrls[5]!], [researchUrls[6]!]];
    const provider = createScriptedProvider({
      turns: (request) => {
        const tokens = Math.ceil(provider.serialize(request).body.length / 4);
        if (tokens > window) return { error: new ContextOverflowError(`This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens.`) };
        // The model loads the skill first, then researches page by page (the compression tests' task).
        const current = step++;
        if (current === 0) return { toolCalls: [{ id: "call_cite", name: "skill", arguments: { name: "cite" } }] };
        const urls = plan[current - 1];
        if (urls === undefined) return "Done, with citations.";
        return { text: `Fetching ${urls.length} page(s).`, toolCalls: urls.map((url) => ({ name: "fetch", arguments: { url } })) };
      },
    });
    const compression = createCompression({ contextWindow: window });
    const skills = createSkillsPolicy(catalog);
    const agent = createAgent({ provider, system: "You research OpenAI's co-founders.", tools: [fetchTool], context: [compression, skills], prefixGuard: { strict: true }, runtime: { clock: createTestClock() } });
    const result = await agent.run("Track where OpenAI's co-founders work now.").result();
    expect(result.stopReason).toBe("final_answer");

    const withSkill = provider.requests.slice(1);
    const checkpointed = withSkill.filter((request) => request.messages.some((message) => derivedOf(message, "checkpoint")?.policy === "skills"));
    // A compaction did remove the skill message, and the body came back with the checkpoint.
    expect(compression.stats().compactions).toBeGreaterThan(0);
    expect(checkpointed.length).toBeGreaterThan(0);
    for (const request of withSkill) {
      const copies = request.messages.filter((message) => typeof message.content === "string" && message.content.includes("CITE-RULE-7"));
      expect(copies).toHaveLength(1);
    }
    expect(skills.activeSkills(agent.messages)).toEqual(["cite"]);
  });
});
