import { nearestName } from "../types/nearest-name.js";

/** "unknown action 'lst' (did you mean 'list'?)": the words of a command with sub-actions (sessions, runs, skills, lint). */
export function describeUnknownAction(typed: string, actions: readonly string[], noun = "action"): string {
  const nearest = nearestName(typed, actions, Math.max(2, Math.floor(typed.length / 3)), { ignoreCase: true });
  return `unknown ${noun} '${typed}'${nearest === undefined ? "" : ` (did you mean '${nearest}'?)`}`;
}
