import { describe, expect, it } from "vitest";
import { parseSkillFile } from "./parse-skill-file.js";

const location = { path: "/skills/pdf-forms/SKILL.md", directory: "/skills/pdf-forms", folderName: "pdf-forms" };

function warningOf(text: string, options = {}) {
  const parsed = parseSkillFile(text, location, options);
  if (!("warning" in parsed)) throw new Error("expected a warning");
  return parsed.warning;
}

describe("parseSkillFile", () => {
  it("reads name, description, allowed-tools, metadata and the body after the frontmatter", () => {
    const parsed = parseSkillFile(
      "---\nname: pdf-forms\ndescription: Fill PDF forms. Use when the user asks to fill a PDF.\nallowed-tools: read_file bash\nmetadata:\n  author: ctxkit\n  version: 2\n---\n\n# Filling forms\n\nRun `scripts/fill.py`.\n",
      location,
    );
    expect(parsed).toEqual({
      skill: {
        name: "pdf-forms",
        description: "Fill PDF forms. Use when the user asks to fill a PDF.",
        path: location.path,
        directory: location.directory,
        body: "# Filling forms\n\nRun `scripts/fill.py`.",
        allowedTools: ["read_file", "bash"],
        metadata: { author: "ctxkit" },
      },
      warnings: [],
    });
  });

  it("loads a skill whose description is over the spec's 1024 characters, with a warning", () => {
    const parsed = parseSkillFile(`---\nname: pdf-forms\ndescription: ${"x".repeat(1025)}\n---\nbody`, location);
    if (!("skill" in parsed)) throw new Error(parsed.warning.message);
    expect(parsed.skill.description).toHaveLength(1025);
    expect(parsed.warnings.map((warning) => warning.code)).toEqual(["skill_description_too_long"]);
  });

  it("accepts CRLF line ends and a byte-order mark", () => {
    const parsed = parseSkillFile("\uFEFF---\r\nname: pdf-forms\r\ndescription: Fill forms.\r\n---\r\nBody\r\n", location);
    expect("skill" in parsed && parsed.skill.body).toBe("Body");
  });

  it("skips a file without frontmatter, with bad YAML, without a name, with another name, or an overlong description", () => {
    expect(warningOf("# Just markdown").code).toBe("skill_frontmatter_missing");
    expect(warningOf("---\nname: [unclosed\n---\nbody").code).toBe("skill_frontmatter_invalid");
    expect(warningOf("---\nname: a\nname: b\n---\nbody").code).toBe("skill_frontmatter_invalid");
    expect(warningOf("---\n- a list\n---\nbody").code).toBe("skill_frontmatter_invalid");
    expect(warningOf("---\ndescription: x\n---\nbody").code).toBe("skill_name_missing");
    expect(warningOf("---\nname: PDF_Forms\ndescription: x\n---\nbody").code).toBe("skill_name_invalid");
    expect(warningOf("---\nname: ../../etc\ndescription: x\n---\nbody").code).toBe("skill_name_invalid");
    const mismatch = warningOf("---\nname: other-name\ndescription: x\n---\nbody");
    expect(mismatch.code).toBe("skill_name_mismatch");
    expect(mismatch.message).toContain("/skills/pdf-forms/SKILL.md");
    expect(mismatch.message).toContain("other-name");
    expect(warningOf("---\nname: pdf-forms\n---\nbody").code).toBe("skill_description_missing");
  });

  it("rejects a YAML alias bomb instead of expanding it", () => {
    // The "billion laughs" shape: each level refers to the previous one nine times.
    const levels = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (let level = 1; level < 9; level++) {
      const previous = String.fromCharCode(96 + level);
      const current = String.fromCharCode(97 + level);
      levels.push(`${current}: &${current} [${Array(9).fill(`*${previous}`).join(", ")}]`);
    }
    const warning = warningOf(`---\nname: pdf-forms\ndescription: x\n${levels.join("\n")}\n---\nbody`);
    expect(warning.code).toBe("skill_frontmatter_invalid");
    expect(warning.message).toMatch(/alias/i);
  });

  it("skips a huge file and a huge frontmatter", () => {
    expect(warningOf(`---\nname: pdf-forms\ndescription: x\n---\n${"x".repeat(300_000)}`).code).toBe("skill_file_too_large");
    expect(warningOf(`---\nname: pdf-forms\ndescription: x\nfiller: ${"y".repeat(20_000)}\n---\nbody`).code).toBe("skill_frontmatter_invalid");
    expect(warningOf(`---\nname: pdf-forms\ndescription: x\n---\nbody`, { maxFileChars: 10 }).code).toBe("skill_file_too_large");
  });
});
