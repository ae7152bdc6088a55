import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSkills } from "./load-skills.js";
import { skillMarkdown, writeSkillFolders } from "./test-support/skill-folders.js";

describe("loadSkills", () => {
  it("searches the user's directories, then the workspace's .ctxkit, .agents, .claude, then home; the first name wins", async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), "ctxkit-workspace-"));
    const home = await mkdtemp(path.join(tmpdir(), "ctxkit-home-"));
    await writeSkillFolders({ deploy: skillMarkdown("deploy", "From .claude.") }, path.join(workspace, ".claude", "skills"));
    await writeSkillFolders({ deploy: skillMarkdown("deploy", "From .agents."), review: skillMarkdown("review", "From .agents.") }, path.join(workspace, ".agents", "skills"));
    await writeSkillFolders({ notes: skillMarkdown("notes", "From home.") }, path.join(home, ".config", "ctxkit", "skills"));
    const given = await writeSkillFolders({ review: skillMarkdown("review", "From the flag.") });

    const catalog = await loadSkills({ workspace, home, directories: [given] });
    expect(catalog.skills.map((skill) => [skill.name, skill.description])).toEqual([
      ["deploy", "From .agents."],
      ["notes", "From home."],
      ["review", "From the flag."],
    ]);
    expect(catalog.warnings.map((warning) => warning.code)).toEqual(["skill_shadowed", "skill_shadowed"]);
    expect(catalog.warnings[0]!.message).toContain(path.join(workspace, ".agents", "skills", "review", "SKILL.md"));
    expect(catalog.warnings[0]!.message).toContain(path.join(given, "review", "SKILL.md"));
    expect(catalog.warnings[1]!.path).toBe(path.join(workspace, ".claude", "skills", "deploy", "SKILL.md"));
  });

  it("skips malformed and huge files with one warning each and keeps the rest", async () => {
    const directory = await writeSkillFolders({
      good: skillMarkdown("good", "Works."),
      "no-frontmatter": "# nothing",
      "wrong-name": skillMarkdown("right-name", "Mismatch."),
      "helper-folder": { "notes.txt": "not a skill" },
      // Over the size cap on disk: refused from its size, before it is read.
      huge: `---\nname: huge\ndescription: x\n---\n${"x".repeat(2_000_000)}`,
    });
    const catalog = await loadSkills({ directories: [directory], includeDefaultDirectories: false });
    expect(catalog.skills.map((skill) => skill.name)).toEqual(["good"]);
    expect(catalog.warnings.map((warning) => warning.code).sort()).toEqual(["skill_file_too_large", "skill_frontmatter_missing", "skill_name_mismatch"]);
  });

  it("warns about a directory the user named that does not exist, not about missing standard ones", async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), "ctxkit-workspace-"));
    const catalog = await loadSkills({ workspace, home: workspace, directories: ["missing-skills"] });
    expect(catalog).toEqual({
      skills: [],
      warnings: [expect.objectContaining({ code: "skill_directory_unreadable", path: path.join(workspace, "missing-skills") })],
    });
  });
});
