import { describe, expect, it } from "vitest";
import { sectionsOf, splitTextCategory } from "./split-text-category.js";

describe("splitTextCategory", () => {
  it("alternates whole groups between the halves, in order of first appearance", () => {
    const category = { id: "d", name: "dialogues", source: "", texts: ["a1", "a2", "b1", "c1", "c2", "d1"], groups: ["a", "a", "b", "c", "c", "d"] };
    const { fit, heldOut } = splitTextCategory(category);
    expect(fit.texts).toEqual(["a1", "a2", "c1", "c2"]);
    expect(heldOut.texts).toEqual(["b1", "d1"]);
    expect(heldOut.groups).toEqual(["b", "d"]);
  });
});

describe("sectionsOf", () => {
  it("cuts a document at blank lines into sections of at least the minimum, losing nothing", () => {
    const text = ["a".repeat(30), "b".repeat(30), "c".repeat(30), "d".repeat(5)].join("\n\n");
    const sections = sectionsOf(text, 50);
    expect(sections.join("")).toBe(text);
    expect(sections).toHaveLength(2);
    expect(sections.every((section) => section.length >= 50 || section === sections.at(-1))).toBe(true);
  });
});
