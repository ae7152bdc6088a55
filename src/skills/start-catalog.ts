import { escapeCatalogText } from "./render-skill-catalog.js";
import { isModelInvocable, type Skill } from "./skill.js";

/**
 * The `<available_skills>` block of a stored system prompt (a resumed session's), or undefined when it
 * has none. Pure.
 */
export function findStartCatalog(sessionText: string | undefined): string | undefined {
  if (sessionText === undefined) return undefined;
  const start = sessionText.indexOf("<available_skills>\n");
  const endTag = "\n</available_skills>";
  const end = start < 0 ? -1 : sessionText.indexOf(endTag, start);
  return end < 0 ? undefined : sessionText.slice(start, end + endTag.length);
}

/**
 * Whether a catalog rendered at a session's start still lists exactly these skills: the same names
 * and locations, each description the same or cut from the same text. Then a resumed session sends it
 * again as it was — how it was cut depended on the workspace's recently used skills at the time, which
 * have changed since — and its prompt stays byte for byte. Pure.
 */
export function startCatalogStillFits(catalog: string, skills: readonly Skill[]): boolean {
  const entries = [...catalog.matchAll(/<skill>\n<name>([^<\n]*)<\/name>\n<description>([^<]*)<\/description>\n<location>([^<\n]*)<\/location>\n<\/skill>/g)];
  const listed = skills.filter(isModelInvocable);
  if (entries.length !== listed.length) return false;
  const byName = new Map(listed.map((skill) => [escapeCatalogText(skill.name), skill]));
  return entries.every(([, name, description, location]) => {
    const skill = byName.get(name!);
    if (!skill || escapeCatalogText(skill.path) !== location) return false;
    const whole = escapeCatalogText(skill.description);
    return description === whole || (description!.endsWith("…") && whole.startsWith(description!.slice(0, -1)));
  });
}
