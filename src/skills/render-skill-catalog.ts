import { maxDescriptionLength } from "./parse-skill-file.js";
import { isModelInvocable, type Skill } from "./skill.js";

export interface SkillCatalogRenderOptions {
  /** Most characters of the listing; descriptions are cut evenly to fit (never below `minDescriptionChars`). */
  budgetChars: number;
  /** Shortest a cut description gets (default 40). */
  minDescriptionChars?: number;
  /**
   * Skill names, most recently used first. When the listing is over budget, descriptions are cut
   * least recently used first (skills not named here before all of them), as Claude Code does;
   * without it they are cut evenly.
   */
  recentlyUsed?: readonly string[];
}

/**
 * The `<available_skills>` listing for the session part of the system prompt: name, description and
 * location of every skill the model may load (not those marked `disable-model-invocation`), sorted
 * by name, so the same catalog always renders the same bytes. Text from the files is escaped so a
 * description cannot close the tags. Pure.
 */
export function renderSkillCatalog(skills: readonly Skill[], options: SkillCatalogRenderOptions): string | undefined {
  const listed = skills.filter(isModelInvocable);
  if (listed.length === 0) return undefined;
  const sorted = [...listed].sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  const render = (descriptionLimit: number | ((skill: Skill) => number)) =>
    [
      "<available_skills>",
      "Skills are instructions loaded only when needed. When a task matches a skill's description, call the `skill` tool with its name before you start; the person may also type /<name>.",
      ...sorted.map((skill) =>
        [`<skill>`, `<name>${escapeCatalogText(skill.name)}</name>`, `<description>${escapeCatalogText(cut(skill.description, Math.min(maxDescriptionLength, typeof descriptionLimit === "number" ? descriptionLimit : descriptionLimit(skill))))}</description>`, `<location>${escapeCatalogText(skill.path)}</location>`, `</skill>`].join("\n"),
      ),
      "</available_skills>",
    ].join("\n");
  const full = render(Number.POSITIVE_INFINITY);
  if (full.length <= options.budgetChars) return full;
  const minimum = options.minDescriptionChars ?? 40;
  if (options.recentlyUsed) {
    // Least recently used first: never-used skills (by name, for stable bytes), then the oldest used.
    const rank = new Map(options.recentlyUsed.map((name, index) => [name, index]));
    const order = [...sorted].sort((left, right) => (rank.get(right.name) ?? Infinity) - (rank.get(left.name) ?? Infinity) || (left.name < right.name ? -1 : 1));
    const shortened = new Set<string>();
    for (const skill of order) {
      shortened.add(skill.name);
      const rendered = render((candidate) => (shortened.has(candidate.name) ? minimum : Number.POSITIVE_INFINITY));
      if (rendered.length <= options.budgetChars) return rendered;
    }
  }
  const withoutDescriptions = render(0).length;
  const perSkill = Math.floor((options.budgetChars - withoutDescriptions) / sorted.length);
  return render(Math.max(minimum, perSkill));
}

function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return limit <= 1 ? "" : `${text.slice(0, limit - 1).trimEnd()}…`;
}

/** Escapes text from a skill file so it cannot close the catalog's tags. */
export function escapeCatalogText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
