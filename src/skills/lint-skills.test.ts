import { describe, expect, it } from "vitest";
import { extractFileReferences, lintDescription, lintSkill } from "./lint-skills.js";
import type { Skill } from "./skill.js";
import { loadSkills } from "./load-skills.js";
import { skillMarkdown, writeSkillFolders } from "./test-support/skill-folders.js";

const skillStub: Skill = { name: "stub", description: "", directory: "/skills/stub", path: "/skills/stub/SKILL.md", body: "Body." };

describe("lintSkill", () => {
  it("finds vague routing descriptions, missing when / when-not, and broken or escaping references", async () => {
    const root = await writeSkillFolders({
      backend: skillMarkdown("backend", "Help with backend"),
      "pdf-forms": {
        "SKILL.md": skillMarkdown(
          "pdf-forms",
          "Fill and flatten PDF forms with pypdf. Use when the user asks to fill a PDF form or extract its fields. Do not use for creating new PDFs or for scanned images.",
          "Read [the field guide](references/fields.md), then run `scripts/fill.py`.\nSee `references/missing.md` and [secrets](../../etc/passwd). Docs: [pypdf](https://pypdf.readthedocs.io).",
        ),
        "references/fields.md": "Fields.",
        "scripts/fill.py": "print('fill')",
      },
    });
    const { skills } = await loadSkills({ directories: [root], includeDefaultDirectories: false });
    const [backend, pdfForms] = await Promise.all(skills.map((skill) => lintSkill(skill)));
    expect(backend!.map((finding) => finding.code)).toEqual(["description_vague", "description_without_when", "description_without_when_not"]);
    expect(pdfForms!.map((finding) => [finding.code, finding.severity])).toEqual([
      ["reference_outside_skill", "error"],
      ["reference_broken", "error"],
    ]);
    expect(pdfForms![1]!.message).toContain("references/missing.md");
  });

  it("counts the spec's folders (scripts/, references/, assets/) as the skill's own even when missing; other paths are unverified", async () => {
    const root = await writeSkillFolders({
      lost: skillMarkdown(
        "lost",
        "x",
        "Read [the guide](guides/setup.md), run `scripts/fill.py`, see `references/api.md` and `assets/logo.png`.\nEdit `word/document.xml` in the user's file.",
      ),
    });
    const { skills } = await loadSkills({ directories: [root], includeDefaultDirectories: false });
    const findings = (await lintSkill(skills[0]!)).filter((finding) => finding.code.startsWith("reference_"));
    expect(findings.map((finding) => [finding.code, finding.severity, finding.message.split("'")[1]])).toEqual([
      ["reference_broken", "error", "guides/setup.md"],
      ["reference_broken", "error", "scripts/fill.py"],
      ["reference_broken", "error", "references/api.md"],
      ["reference_broken", "error", "assets/logo.png"],
      ["reference_unverified", "warning", "word/document.xml"],
    ]);
  });

  it("takes a when-clause in the wordings real skills use, but not a when-not clause alone", () => {
    const codes = (description: string) => lintDescription({ ...skillStub, description }).map((finding) => finding.code);
    for (const description of [
      "Guidance for distinctive, intentional visual design when building new UI or reshaping an existing one. Do not use for backend work.",
      "Fill PDF forms and extract their tables. When Claude needs to fill in a PDF form; not for scanned images.",
      "Guide for creating effective skills. This skill should be used when users want to create a new skill, never for running one.",
      "Create distinctive frontend interfaces. Use this skill when the user asks to build web components, not for backend code.",
    ]) {
      expect(codes(description)).toEqual([]);
    }
    expect(codes("Toolkit for styling artifacts with a theme. Do not use when the user asks for a new theme.")).toEqual(["description_without_when"]);
    // A negation before either wording makes it a when-not clause, not a when one.
    for (const description of [
      "Toolkit for styling artifacts with a theme. Avoid when the user asks for a new theme.",
      "Toolkit for extracting tables from Word documents. Do not use for PDFs or scanned images.",
      "Toolkit for extracting tables from Word documents. Don't use it to convert PDFs, never use this skill if the file is scanned.",
      "Toolkit for extracting tables from Word documents and spreadsheets, except when they are scanned.",
    ]) {
      expect(codes(description), description).toEqual(["description_without_when"]);
    }
    expect(codes("Toolkit for extracting tables from Word documents. Use for .docx files; do not use for PDFs.")).toEqual([]);
  });

  it("flags an empty body and one over 500 lines", async () => {
    const root = await writeSkillFolders({
      empty: skillMarkdown("empty", "x", ""),
      long: skillMarkdown("long", "x", Array.from({ length: 600 }, (_, line) => `line ${line}`).join("\n")),
    });
    const { skills } = await loadSkills({ directories: [root], includeDefaultDirectories: false });
    const findings = (await Promise.all(skills.map((skill) => lintSkill(skill)))).flat().map((finding) => finding.code);
    expect(findings).toContain("body_empty");
    expect(findings).toContain("body_too_long");
  });

  it("takes links and backticked paths with a folder as references, not URLs, anchors or bare names", () => {
    expect(extractFileReferences("[a](docs/a.md#part) [b](https://x.y/z) [c](#top) `scripts/run.sh` `run.sh` `/mnt/out/` `./local.txt`")).toEqual([
      "docs/a.md",
      "scripts/run.sh",
      "./local.txt",
    ]);
  });
});
