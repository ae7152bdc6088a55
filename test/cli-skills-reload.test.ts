import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { runCli } from "./run-cli.js";

let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const skill = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;

describe("ctxkit chat with a skill written during the chat", () => {
  it("picks it up before the next message: '/name' expands, the model is told by an appended message, the prefix stays", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-skills-reload-"));
    await mkdir(join(cwd, ".agents", "skills", "deploy"), { recursive: true });
    await writeFile(join(cwd, ".agents", "skills", "deploy", "SKILL.md"), skill("deploy", "Deploy the service. Use when asked to ship. Do not use for local runs.", "Run make deploy."));
    // The model itself writes a new skill in the first turn, with a command (approved with --yes, in a workspace the
    // person trusts: an untrusted one's own skills would make the context untrusted from the start): file tools
    // that write into a skills folder are asked about at a terminal, as a planted skill could turn tools on.
    const newSkill = skill("release-notes", "Write release notes from the changelog. Use when asked for release notes. Do not use for commit messages.", "Group the changes by type.");
    const command = [
      "mkdir -p .agents/skills/release-notes .agents/skills/broken",
      `cat > .agents/skills/release-notes/SKILL.md <<'EOF'\n${newSkill}EOF`,
      "printf 'no frontmatter here\\n' > .agents/skills/broken/SKILL.md",
    ].join("\n");
    server = await startOpenAIModelServer([
      { toolCalls: [{ name: "bash", arguments: { command } }] },
      "Wrote the skill.",
      "Notes written.",
    ]);
    const run = await runCli(["chat", "--base-url", server.baseURL, "--model", "m", "--status-bar", "off", "--yes", "--trust-workspace", "--tools", "all"], {
      cwd,
      input: ["Write a release-notes skill.", { line: "/release-notes v2.1", waitFor: "Wrote the skill." }, { line: "/exit", waitFor: "Notes written." }],
      timeoutMs: 90_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("(skills added release-notes; the model is told with this message)");
    expect(run.stdout).not.toContain("Unknown command /release-notes");
    // The broken one is skipped and said once, on stderr, like a broken skill at start.
    expect(run.stderr.match(/ctxkit chat: skills: .*broken.*SKILL\.md/g)).toHaveLength(1);
    const bodies = server.requests.map((request) => JSON.parse(request.body) as { messages: Array<{ role: string; content: string }> });
    expect(bodies).toHaveLength(3);
    const third = bodies[2]!.messages;
    expect(third.at(-2)!.content).toMatch(/\/release-notes v2\.1\n\n<skill name="release-notes"[\s\S]*Group the changes by type\.[\s\S]*ARGUMENTS: v2\.1$/);
    expect(third.at(-1)!.content).toMatch(/^<skills_changed>[\s\S]*<name>release-notes<\/name>/);
    // The system prompt (with the catalog of the start) is unchanged, and each request extends the previous one.
    expect(third[0]).toEqual(bodies[0]!.messages[0]);
    expect(third[0]!.content).not.toContain("release-notes");
    for (let index = 1; index < bodies.length; index += 1) {
      expect(JSON.stringify(bodies[index]!.messages).startsWith(JSON.stringify(bodies[index - 1]!.messages).slice(0, -1))).toBe(true);
    }
  }, 120_000);
});
