import { createRequire } from "node:module";
import { parseSlashCommand } from "../skills/index.js";

const requireFromHere = createRequire(import.meta.url);

/**
 * A note for a task written as a skill command ("/pdff extract the tables") whose skill does not exist: the task is
 * still sent as written (it may be a path such as "/tmp is full"), but a mistyped skill name should not pass unnoticed.
 */
export function describeUnknownSkill(task: string, skillNames: readonly string[]): string | undefined {
  // Without any skill, a leading "/word" is far more likely a path or a habit from another tool than a typo.
  if (skillNames.length === 0) return undefined;
  const command = parseSlashCommand(task);
  if (command === undefined || skillNames.includes(command.name)) return undefined;
  // fastest-levenshtein is loaded by the first typo to suggest for, not when the CLI starts.
  const { closest, distance } = requireFromHere("fastest-levenshtein") as typeof import("fastest-levenshtein");
  const nearest = closest(command.name, [...skillNames]);
  const suggestion = distance(command.name, nearest) <= 2 ? ` (did you mean /${nearest}?)` : "";
  const more = skillNames.length > maxListedSkills ? ` and ${skillNames.length - maxListedSkills} more (ctxkit skills list)` : "";
  return `no skill '${command.name}'${suggestion}; skills: ${skillNames.slice(0, maxListedSkills).join(", ")}${more}. The task is sent as written.`;
}

/** A note is one line: a folder of a hundred skills is summed up, not listed. */
const maxListedSkills = 10;
