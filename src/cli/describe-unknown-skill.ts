import { parseSlashCommand } from "../skills/index.js";
import { nearestName } from "../types/nearest-name.js";

/**
 * A note for a task written as a skill command ("/pdff extract the tables") whose skill does not exist: the task is
 * still sent as written (it may be a path such as "/tmp is full"), but a mistyped skill name should not pass unnoticed.
 */
export function describeUnknownSkill(task: string, skillNames: readonly string[]): string | undefined {
  // Without any skill, a leading "/word" is far more likely a path or a habit from another tool than a typo.
  if (skillNames.length === 0) return undefined;
  const command = parseSlashCommand(task);
  if (command === undefined || skillNames.includes(command.name)) return undefined;
  const nearest = nearestName(command.name, skillNames, 2);
  const suggestion = nearest === undefined ? "" : ` (did you mean /${nearest}?)`;
  const more = skillNames.length > maxListedSkills ? ` and ${skillNames.length - maxListedSkills} more (ctxkit skills list)` : "";
  return `no skill '${command.name}'${suggestion}; skills: ${skillNames.slice(0, maxListedSkills).join(", ")}${more}. The task is sent as written.`;
}

/** A note is one line: a folder of a hundred skills is summed up, not listed. */
const maxListedSkills = 10;
