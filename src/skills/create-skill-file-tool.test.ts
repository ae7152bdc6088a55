import { execFileSync } from "node:child_process";
import { symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSkillFileTool } from "./create-skill-file-tool.js";
import { loadSkills } from "./load-skills.js";
import { skillMarkdown, writeSkillFolders } from "./test-support/skill-folders.js";

const context = { signal: new AbortController().signal, toolCallId: "call_1" };

async function setUp() {
  const root = await writeSkillFolders({
    "pdf-forms": { "SKILL.md": skillMarkdown("pdf-forms", "Fill PDF forms."), "references/fields.md": "Field names are case-sensitive." },
    secrets: { "SKILL.md": skillMarkdown("secrets", "Another skill."), "token.txt": "s3cret" },
  });
  await writeFile(path.join(root, "outside.txt"), "outside the skills");
  const { skills } = await loadSkills({ directories: [root], includeDefaultDirectories: false });
  return { root, tool: createSkillFileTool(skills) };
}

describe("skill_file", () => {
  it("reads a file inside the skill's folder by a relative path", async () => {
    const { tool } = await setUp();
    expect(await tool.execute({ skill: "pdf-forms", path: "references/fields.md" }, context)).toBe("Field names are case-sensitive.");
  });

  it("refuses paths that leave the skill's folder: .., absolute paths, a sibling skill, a symbolic link out", async () => {
    const { root, tool } = await setUp();
    await symlink(path.join(root, "secrets", "token.txt"), path.join(root, "pdf-forms", "link.txt"));
    for (const requested of ["../secrets/token.txt", "../outside.txt", path.join(root, "outside.txt"), "references/../../secrets/token.txt", "link.txt", "/etc/passwd"]) {
      await expect(tool.execute({ skill: "pdf-forms", path: requested }, context)).rejects.toMatchObject({ kind: "permission", message: expect.stringContaining("outside the folder of skill 'pdf-forms'") });
    }
  });

  it("names the skill's files when a path does not exist, and the skills when the name is unknown", async () => {
    const { tool } = await setUp();
    await expect(tool.execute({ skill: "pdf-forms", path: "missing.md" }, context)).rejects.toMatchObject({
      kind: "not_found",
      message: "'missing.md' does not exist in skill 'pdf-forms'. Its files: SKILL.md, references/fields.md.",
    });
    await expect(tool.execute({ skill: "nope", path: "SKILL.md" }, context)).rejects.toMatchObject({ kind: "not_found", message: "Skill 'nope' not found. Available: pdf-forms, secrets." });
  });
});

// Issue 24, failure 9: a FIFO in a skill folder hung skill_file for the full tool timeout, and then the process never exited.
describe("skill_file and special files", () => {
  it("refuses a FIFO at once, as read_file does, instead of waiting for a writer", async () => {
    const { root, tool } = await setUp();
    execFileSync("mkfifo", [path.join(root, "pdf-forms", "pipe.md")]);
    await expect(tool.execute({ skill: "pdf-forms", path: "pipe.md" }, context)).rejects.toMatchObject({
      kind: "invalid_arguments",
      message: expect.stringContaining("only works on regular files"),
    });
  });
});
