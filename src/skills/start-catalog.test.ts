import { describe, expect, it } from "vitest";
import { renderSkillCatalog } from "./render-skill-catalog.js";
import type { Skill } from "./skill.js";
import { findStartCatalog, startCatalogStillFits } from "./start-catalog.js";

const skill = (name: string, description: string): Skill => ({ name, description, path: `/s/${name}/SKILL.md`, directory: `/s/${name}`, body: "" });
const skills = Array.from({ length: 12 }, (_, index) => skill(`skill-${index}`, `Use when <${index}> & more. ${"detail ".repeat(80)}`));

describe("a resumed session's start catalog", () => {
  it("is found in the stored prompt and still fits the same skills however it was cut", () => {
    const cut = renderSkillCatalog(skills, { budgetChars: 6_000, recentlyUsed: ["skill-3"] })!;
    const stored = `<project_instructions>x</project_instructions>\n\n## Untrusted content\n…\n\n${cut}\n\n## Later section`;
    expect(findStartCatalog(stored)).toBe(cut);
    expect(startCatalogStillFits(cut, skills)).toBe(true);
    expect(startCatalogStillFits(renderSkillCatalog(skills, { budgetChars: 1_000_000 })!, skills)).toBe(true);
  });

  it("does not fit once a skill was added, removed, moved or its description rewritten", () => {
    const cut = renderSkillCatalog(skills, { budgetChars: 6_000 })!;
    expect(startCatalogStillFits(cut, [...skills, skill("extra", "More.")])).toBe(false);
    expect(startCatalogStillFits(cut, skills.slice(1))).toBe(false);
    expect(startCatalogStillFits(cut, skills.map((entry, index) => (index === 0 ? { ...entry, path: "/t/skill-0/SKILL.md" } : entry)))).toBe(false);
    expect(startCatalogStillFits(cut, skills.map((entry, index) => (index === 0 ? { ...entry, description: "Rewritten." } : entry)))).toBe(false);
    expect(findStartCatalog("no catalog here")).toBeUndefined();
  });
});
