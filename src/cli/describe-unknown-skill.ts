import { createRequire } from "node:module";
import { parseSlashCommand } from "../skills/index.js";

const requireFromHere = createRequire(import.meta.url);

/**
 * A note for a task written as a skill command ("/pdff extract the tables") whose skill does not exist: the task is
 * still sent as written (it may be a path such as "/tmp is full"), but a mistyped skill name should not pass unnoticed.
 */
export function describeUnknownSkill(task: string, skillNames: readonly string[]): string | undefined {
  const command = parseSlashCommand(task);
  if (command === undefined || skillNames.includes(command.name)) return undefined;
  let suggestion = "";
  if (skillNames.length > 0) {
    // fastest-levenshtein is loaded by the first typo to suggest for, not when the CLI starts.
    const { closest, distance } = requireFromHere("fastest-levenshtein") as typeof import("fastest-levenshtein");
    const nearest = closest(command.name, [...skillNames]);
    if (distance(command.name, nearest) <= 2) suggestion = ` (did you mean /${nearest}?)`;
  }
  const known = skillNames.length === 0 ? "no skills were found" : `skills: ${skillNames.join(", ")}`;
  return `no skill '${command.name}'${suggestion}; ${known}. The task is sent as written.`;
}
