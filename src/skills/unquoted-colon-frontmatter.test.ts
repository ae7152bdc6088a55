import { describe, expect, it } from "vitest";
import { parseSkillFile } from "./parse-skill-file.js";

// The most common broken SKILL.md in the wild: a plain `description:` holding ': ', which strict
// YAML reads as a nested mapping. Claude Code accepts these; Codex, `npx skills` and ctxkit skipped
// them. Reported in pbakaus/impeccable#102 (the `harden` line below, as quoted there),
// mattpocock/skills#908 (six skills), jaredrhod/ai-marketing-skills#3, wix/skills#1385. The Agent
// Skills client guide ("Handling malformed YAML") suggests retrying with the value quoted.
const harden =
  "description: Make interfaces production-ready: error handling, empty states, onboarding flows, i18n, text overflow, and edge case management. Use when the user asks to harden, make production-ready, handle edge cases, add error states, design empty states, improve onboarding, or fix overflow and i18n issues.";
const location = (name: string) => ({ path: `/skills/${name}/SKILL.md`, directory: `/skills/${name}`, folderName: name });

function loaded(text: string, name: string) {
  const parsed = parseSkillFile(text, location(name));
  if ("warning" in parsed) throw new Error(parsed.warning.message);
  return parsed;
}

describe("a SKILL.md whose plain description holds ': '", () => {
  it("loads with the description as written and a warning that says to quote it", () => {
    const parsed = loaded(`---\nname: harden\n${harden}\n---\n\nStrengthen interfaces.\n`, "harden");
    expect(parsed.skill.description).toBe(harden.slice("description: ".length));
    expect(parsed.skill.body).toBe("Strengthen interfaces.");
    expect(parsed.warnings.map((warning) => warning.code)).toEqual(["skill_frontmatter_repaired"]);
    expect(parsed.warnings[0]!.message).toContain("'description'");
    expect(parsed.warnings[0]!.message).toContain("quote");
  });

  it("keeps the fields after it (allowed-tools) and folds a description continued on indented lines", () => {
    const text = "---\nname: marketing\ndescription: Run any marketing task. Use whenever the user wants marketing work: writing\n  or improving copy, it's sales pages.\nallowed-tools: Read\n---\nBody";
    const parsed = loaded(text, "marketing");
    expect(parsed.skill.description).toBe("Run any marketing task. Use whenever the user wants marketing work: writing or improving copy, it's sales pages.");
    expect(parsed.skill.allowedTools).toEqual(["Read"]);
  });

  it("leaves a frontmatter YAML reads as it is: no repair, no warning", () => {
    const text = "---\nname: harden\ndescription: >-\n  Use when: the user asks\n  to harden.\nmetadata:\n  note: \"a: b\"\n---\nBody";
    const parsed = loaded(text, "harden");
    expect(parsed.skill.description).toBe("Use when: the user asks to harden.");
    expect(parsed.skill.metadata).toEqual({ note: "a: b" });
    expect(parsed.warnings).toEqual([]);
  });

  it("still skips frontmatter that quoting one value does not mend, with the parser's first complaint", () => {
    const parsed = parseSkillFile("---\nname: harden\ndescription: one: two\ntags: [unclosed\n---\nBody", location("harden"));
    expect("warning" in parsed && parsed.warning.code).toBe("skill_frontmatter_invalid");
    // The parser's line ends with ':' before an excerpt that is not printed.
    expect("warning" in parsed && parsed.warning.message).toMatch(/column \d+\)\. The skill is skipped\.$/);
  });
});
