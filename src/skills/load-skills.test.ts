import { mkdir, mkdtemp, rename, symlink } from "node:fs/promises";
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

// Issue 24, failure 9: a skill folder or SKILL.md that was a symbolic link out of the workspace was
// loaded, and skill_file then returned the outside file.
describe("loadSkills keeps each skill inside the folder it was found in", () => {
  it("refuses, with a warning, a skill folder, a SKILL.md or a workspace skills root that links outside", async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), "ctxkit-workspace-"));
    const outside = await writeSkillFolders({ stolen: skillMarkdown("stolen", "Outside."), linked: skillMarkdown("linked", "Outside file.") });
    const skills = path.join(workspace, ".ctxkit", "skills");
    await writeSkillFolders({ inside: skillMarkdown("inside", "Stays."), linked: { "README.md": "helper" } }, skills);
    await symlink(path.join(outside, "stolen"), path.join(skills, "stolen"));
    await symlink(path.join(outside, "linked", "SKILL.md"), path.join(skills, "linked", "SKILL.md"));
    // A whole skills root that is a link out of the workspace.
    await mkdir(path.join(workspace, ".agents"));
    const elsewhere = await writeSkillFolders({ remote: skillMarkdown("remote", "Outside root.") });
    await symlink(elsewhere, path.join(workspace, ".agents", "skills"));

    const home = await mkdtemp(path.join(tmpdir(), "ctxkit-home-"));
    const catalog = await loadSkills({ workspace, home });
    expect(catalog.skills.map((skill) => skill.name)).toEqual(["inside"]);
    const refused = catalog.warnings.filter((warning) => warning.code === "skill_outside_root").map((warning) => warning.path).sort();
    expect(refused).toEqual([path.join(workspace, ".agents", "skills"), path.join(skills, "linked", "SKILL.md"), path.join(skills, "stolen")].sort());
    expect(catalog.warnings.find((warning) => warning.path === path.join(skills, "stolen"))!.message).toContain("outside");
  });

  it("still loads a skill folder that links to another place inside the same root", async () => {
    const root = await writeSkillFolders({ real: skillMarkdown("alias", "Same root.") });
    await mkdir(path.join(root, "store"));
    await rename(path.join(root, "real"), path.join(root, "store", "alias"));
    await symlink(path.join(root, "store", "alias"), path.join(root, "alias"));
    const catalog = await loadSkills({ directories: [root], includeDefaultDirectories: false });
    expect(catalog.skills.map((skill) => skill.name)).toEqual(["alias"]);
  });
});
