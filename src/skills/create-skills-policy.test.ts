import { describe, expect, it } from "vitest";
import type { ContextPolicy } from "../context/context-policy.js";
import { createStatusBar } from "../context/status-bar/index.js";
import { createAgent } from "../loop/create-agent.js";
import { createTestClock } from "../loop/test-support.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import type { Message, UserMessage } from "../types/index.js";
import { createSkillsPolicy, parseSlashCommand } from "./create-skills-policy.js";
import { loadSkills } from "./load-skills.js";
import { skillMarkdown, writeSkillFolders } from "./test-support/skill-folders.js";

const deployBody = `# Deploy\n\nRun the smoke tests, then \`make deploy ENV=<env>\`. ${"Deploy detail. ".repeat(40)}`;
const reviewBody = `# Review\n\nRead the diff, list risks first, then style. ${"Review detail. ".repeat(40)}`;

async function loadCatalog() {
  const root = await writeSkillFolders({
    review: skillMarkdown("review", "Review a diff for risks. Use when asked to review changes. Do not use for writing code."),
    deploy: skillMarkdown("deploy", "Deploy the service. Use when the user asks to ship or deploy. Do not use for local runs.", deployBody),
  });
  // The fixture's `review` body, written after the frontmatter helper.
  await writeSkillFolders({ review: skillMarkdown("review", "Review a diff for risks. Use when asked to review changes. Do not use for writing code.", reviewBody) }, root);
  return loadSkills({ directories: [root], includeDefaultDirectories: false });
}

/** Every body after the first starts with the previous body's cached part: no byte sent earlier changed. */
function expectPrefixExtensions(bodies: readonly { body: string; prefixLength: number }[], except: ReadonlySet<number> = new Set()) {
  for (let index = 1; index < bodies.length; index++) {
    if (except.has(index)) continue;
    expect(bodies[index]!.body.startsWith(bodies[index - 1]!.body.slice(0, bodies[index - 1]!.prefixLength)), `request ${index} extends request ${index - 1}`).toBe(true);
  }
}

describe("the skills policy in the agent loop", () => {
  it("lists the catalog once in the session part of the system prompt, sorted by name", async () => {
    const catalog = await loadCatalog();
    const provider = createScriptedProvider({ turns: ["ok"] });
    const agent = createAgent({ provider, system: "You are helpful.", context: [createSkillsPolicy(catalog)], prefixGuard: { strict: true }, runtime: { clock: createTestClock() } });
    await agent.run("hello").result();
    const system = provider.requests[0]!.system;
    expect(system.staticText).toBe("You are helpful.");
    expect(system.sessionText).toContain("<available_skills>");
    expect(system.sessionText!.indexOf("<name>deploy</name>")).toBeLessThan(system.sessionText!.indexOf("<name>review</name>"));
    expect(system.sessionText).toContain(`<location>${catalog.skills[0]!.path}</location>`);
    expect(provider.requests[0]!.tools.map((tool) => tool.name)).toEqual(["skill", "skill_file"]);
  });

  it("expands '/name args' into the user message carrying the body, with no tool round trip", async () => {
    const catalog = await loadCatalog();
    const provider = createScriptedProvider({ turns: ["Deployed.", "Already done."] });
    const policy = createSkillsPolicy(catalog);
    const agent = createAgent({ provider, system: "s", context: [policy], prefixGuard: { strict: true }, runtime: { clock: createTestClock() } });
    await agent.run("/deploy staging").result();
    await agent.run("/deploy staging").result();

    const first = provider.requests[0]!.messages.at(-1) as UserMessage;
    expect(first.role).toBe("user");
    expect(first.content.startsWith("/deploy staging\n\n<skill name=\"deploy\"")).toBe(true);
    expect(first.content).toContain(deployBody.trim());
    expect(first.content.endsWith("</skill>\nARGUMENTS: staging")).toBe(true);
    expect(first.meta.derived).toEqual({ kind: "skill", name: "deploy", via: "slash" });
    // On the wire: the body is inside the one user message of the first request.
    expect(provider.bodies[0]!.body).toContain(JSON.stringify(first.content).slice(1, 200));
    // The second '/deploy' finds it active: no second copy of the body.
    const second = provider.requests[1]!.messages.at(-1) as UserMessage;
    expect(second.content).toBe("/deploy staging\n\n(Skill 'deploy' is already active; its instructions are earlier in this conversation.)");
    expect(provider.bodies[1]!.body.split("Deploy detail.").length - 1).toBe(40);
    expect(policy.activeSkills(agent.messages)).toEqual(["deploy"]);
    expectPrefixExtensions(provider.bodies);
  });

  it("names the active skills in the tail when asked, and only once one is active", async () => {
    const catalog = await loadCatalog();
    const provider = createScriptedProvider({ turns: ["Hi.", "Deployed."] });
    const agent = createAgent({ provider, system: "s", context: [createSkillsPolicy(catalog, { listActiveInTail: true })], prefixGuard: { strict: true }, runtime: { clock: createTestClock() } });
    await agent.run("hello").result();
    await agent.run("/deploy staging").result();
    expect(provider.requests[0]!.tail).toBeUndefined();
    expect(provider.requests[1]!.tail?.content).toBe("Active skills: deploy (their instructions are in the conversation).");
  });

  it("recites the typed '/name args' as the status bar's goal, not the skill body it expanded to", async () => {
    const catalog = await loadCatalog();
    const provider = createScriptedProvider({ turns: ["Deployed."] });
    const agent = createAgent({ provider, system: "s", context: [createSkillsPolicy(catalog), createStatusBar()], prefixGuard: { strict: true }, runtime: { clock: createTestClock() } });
    await agent.run("/deploy staging").result();
    const tail = provider.requests[0]!.tail!.content;
    expect(tail).toContain('goal: "/deploy staging"');
    expect(tail).not.toContain("<skill");
  });

  it("answers the skill tool with a placeholder and appends the body as a user message right after it, once", async () => {
    const catalog = await loadCatalog();
    const provider = createScriptedProvider({
      turns: [
        { toolCalls: [{ id: "call_review", name: "skill", arguments: { name: "review", arguments: "the last commit" } }] },
        { toolCalls: [{ id: "call_again", name: "skill", arguments: { name: "review" } }] },
        { toolCalls: [{ id: "call_missing", name: "skill", arguments: { name: "nope" } }] },
        "Reviewed.",
      ],
    });
    const agent = createAgent({ provider, system: "s", context: [createSkillsPolicy(catalog)], prefixGuard: { strict: true }, runtime: { clock: createTestClock() } });
    const result = await agent.run("Please review my change.").result();
    expect(result.stopReason).toBe("final_answer");

    const messages = provider.requests[1]!.messages;
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "user"]);
    expect(messages[2]).toMatchObject({ role: "tool", toolCallId: "call_review", content: "Loaded skill 'review'. Its instructions follow in the next message." });
    expect((messages[3] as UserMessage).content.startsWith(`<skill name="review" location="${catalog.skills[1]!.path}">`)).toBe(true);
    const body = messages[3] as UserMessage;
    expect(body.meta).toMatchObject({ origin: "harness", derived: { kind: "skill", name: "review", via: "tool", toolCallId: "call_review" } });
    expect(body.content).toContain(reviewBody.trim());
    expect(body.content.endsWith("ARGUMENTS: the last commit")).toBe(true);
    // In the exact bytes: placeholder, then the body, at the end of the trajectory.
    const wire = provider.bodies[1]!.body;
    expect(wire.indexOf("Loaded skill 'review'")).toBeLessThan(wire.indexOf('<skill name=\\"review\\"'));
    expect(wire.indexOf('<skill name=\\"review\\"')).toBeGreaterThan(wire.indexOf("Please review my change."));

    // The second call finds it active: the result says so, and no second body follows.
    const later = provider.requests[2]!.messages;
    expect(later.at(-1)).toMatchObject({ role: "tool", content: "Skill 'review' is already active; its instructions are earlier in this conversation." });
    expect(provider.bodies[3]!.body.split("Review detail.").length - 1).toBe(40);
    // An unknown name is an error result for the model, not a crash.
    expect(provider.requests[3]!.messages.at(-1)).toMatchObject({ role: "tool", isError: true, content: expect.stringContaining("Skill 'nope' not found. Available: deploy, review.") });
    expectPrefixExtensions(provider.bodies);
  });

  it("re-injects the active bodies after a compaction, dropping what does not fit and saying so", async () => {
    const catalog = await loadCatalog();
    let compacted = false;
    // A stand-in for full compaction: before the third run's call it replaces everything before the new user message.
    const compactor: ContextPolicy = {
      name: "test-compactor",
      order: -100,
      prepareContext({ messages }) {
        if (compacted || !messages.some((message) => message.role === "user" && message.content === "Anything else?")) return undefined;
        compacted = true;
        const summary: Message = { role: "user", content: "[summary] Deployed and reviewed.", meta: { id: "summary_1", origin: "harness", createdAt: "", derived: { kind: "summary", replaces: [], batch: 1 } } };
        return [{ type: "replace", start: 0, end: messages.length - 1, messages: [summary], reason: "test compaction" }];
      },
    };
    const provider = createScriptedProvider({
      turns: ["Deployed.", { toolCalls: [{ id: "call_review", name: "skill", arguments: { name: "review" } }] }, "Reviewed.", "Nothing else."],
    });
    // Room for one body: the one activated last (review) is kept, deploy is named as dropped.
    const policy = createSkillsPolicy(catalog, { maxCheckpointChars: reviewBody.length + 10 });
    const agent = createAgent({ provider, system: "s", context: [policy, compactor], prefixGuard: { strict: true }, runtime: { clock: createTestClock() } });
    await agent.run("/deploy prod").result();
    await agent.run("Review it.").result();
    await agent.run("Anything else?").result();

    const afterCompaction = provider.requests[3]!.messages;
    expect(afterCompaction.map((message) => message.meta.derived?.kind ?? message.role)).toEqual(["summary", "checkpoint", "user"]);
    const checkpoint = afterCompaction[1] as UserMessage;
    expect(checkpoint.meta.derived).toEqual({ kind: "checkpoint", policy: "skills", data: { version: 1, active: ["review"], dropped: ["deploy"] } });
    expect(checkpoint.content).toContain(reviewBody.trim());
    expect(checkpoint.content).not.toContain("Deploy detail.");
    expect(checkpoint.content).toContain("Not carried over (too long; load again with the skill tool if still needed): deploy.");
    expect(policy.activeSkills(agent.messages)).toEqual(["review"]);
    // The compaction is the one declared break; every other request extends the one before.
    expectPrefixExtensions(provider.bodies, new Set([3]));
  });
});

describe("parseSlashCommand", () => {
  it("takes '/name args' and leaves paths and prose alone", () => {
    expect(parseSlashCommand("/deploy staging now")).toEqual({ name: "deploy", args: "staging now" });
    expect(parseSlashCommand("  /review\n")).toEqual({ name: "review", args: "" });
    expect(parseSlashCommand("/etc/hosts is broken")).toBeUndefined();
    expect(parseSlashCommand("please /deploy")).toBeUndefined();
  });
});
