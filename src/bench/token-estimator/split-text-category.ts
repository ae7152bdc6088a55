import type { TextCategory } from "./text-category.js";

export interface SplitCategory {
  /** The half the coefficients are fitted on. */
  fit: TextCategory;
  /** The half they are only measured on. */
  heldOut: TextCategory;
}

/**
 * Splits a category in two by its groups (a dialogue's task, a run, a tool, a document section),
 * alternating in order of first appearance: every text of a group lands in the same half, so the
 * held-out half has no dialogue or run whose other messages were fitted on.
 */
export function splitTextCategory(category: TextCategory): SplitCategory {
  const order = new Map<string, number>();
  for (const group of category.groups) if (!order.has(group)) order.set(group, order.size);
  const pick = (parity: number): TextCategory => ({
    ...category,
    texts: category.texts.filter((_, index) => order.get(category.groups[index]!)! % 2 === parity),
    groups: category.groups.filter((group) => order.get(group)! % 2 === parity),
  });
  return { fit: pick(0), heldOut: pick(1) };
}

/** Cuts a document into sections of at least `minChars` at blank lines, so one document can be split. */
export function sectionsOf(text: string, minChars = 2_000): string[] {
  const sections: string[] = [];
  let current = "";
  for (const paragraph of text.split(/(?<=\n\n)/)) {
    current += paragraph;
    if (current.length >= minChars) {
      sections.push(current);
      current = "";
    }
  }
  if (current !== "") {
    if (sections.length > 0 && current.length < minChars / 2) sections[sections.length - 1] += current;
    else sections.push(current);
  }
  return sections;
}
