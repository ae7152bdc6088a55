import type { UserMessage } from "../types/index.js";
import { renderSkillCatalog } from "./render-skill-catalog.js";
import { isModelInvocable, type Skill } from "./skill.js";
import { skillsPolicyName } from "./skill-messages.js";

/** How the skills differ from the ones the session knew: by name, sorted. */
export interface SkillsChange {
  added: Skill[];
  /** Same name, another description, body or location. */
  changed: Skill[];
  removed: string[];
}

export function diffSkills(before: readonly Skill[], after: readonly Skill[]): SkillsChange {
  const old = new Map(before.map((skill) => [skill.name, skill]));
  const now = new Map(after.map((skill) => [skill.name, skill]));
  const sorted = (skills: Skill[]) => skills.sort((left, right) => (left.name < right.name ? -1 : 1));
  return {
    added: sorted(after.filter((skill) => !old.has(skill.name))),
    changed: sorted(after.filter((skill) => {
      const previous = old.get(skill.name);
      return previous !== undefined && (previous.description !== skill.description || previous.body !== skill.body || previous.path !== skill.path);
    })),
    removed: [...old.keys()].filter((name) => !now.has(name)).sort(),
  };
}

export function isEmptySkillsChange(change: SkillsChange): boolean {
  return change.added.length === 0 && change.changed.length === 0 && change.removed.length === 0;
}

/**
 * The delta that announces skills which appeared, changed or went away mid-session — appended to
 * the trajectory, never written into the system prompt's catalog (that would change the cached
 * prefix). `canLoad`: the session has the `skill` tool (it started with skills).
 */
export function createSkillsChangedMessage(change: SkillsChange, options: { canLoad: boolean; budgetChars: number }, id: string, now: Date): UserMessage {
  // A skill only the person may start is not announced to the model, as it is not in the catalog.
  const shown = [...change.added, ...change.changed].filter(isModelInvocable);
  const how = options.canLoad ? "Load one with the `skill` tool when a task matches it" : "The person can load one by typing /<name>";
  const lines = ["<skills_changed>"];
  if (shown.length > 0) {
    lines.push(`Skills added or changed since the list above (${how}; a changed skill that is already active keeps the instructions loaded before):`);
    lines.push(renderSkillCatalog(shown, { budgetChars: options.budgetChars })!.split("\n").slice(2, -1).join("\n"));
  }
  if (change.removed.length > 0) lines.push(`Skills no longer available: ${change.removed.join(", ")}.`);
  lines.push("</skills_changed>");
  return {
    role: "user",
    content: lines.join("\n"),
    meta: { id, origin: "harness", createdAt: now.toISOString(), derived: { kind: "note", policy: skillsPolicyName } },
  };
}
