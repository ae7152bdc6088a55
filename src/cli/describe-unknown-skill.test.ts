import { describe, expect, it } from "vitest";
import { describeUnknownSkill } from "./describe-unknown-skill.js";

describe("describeUnknownSkill", () => {
  it("names the nearest skill and lists at most ten, with how many more", () => {
    const names = Array.from({ length: 25 }, (_, index) => `skill-${String(index).padStart(2, "0")}`);
    expect(describeUnknownSkill("/skill-0x do it", names)).toBe(
      `no skill 'skill-0x' (did you mean /skill-00?); skills: ${names.slice(0, 10).join(", ")} and 15 more (ctxkit skills list). The task is sent as written.`,
    );
    expect(describeUnknownSkill("/pdff extract", ["pdf", "docx"])).toBe("no skill 'pdff' (did you mean /pdf?); skills: pdf, docx. The task is sent as written.");
  });

  it("says nothing for a known skill or when no skills are loaded at all", () => {
    expect(describeUnknownSkill("/pdf extract", ["pdf"])).toBeUndefined();
    expect(describeUnknownSkill("/pdff extract", [])).toBeUndefined();
  });
});
