import { configSettings, type SettingDeclaration } from "./config-settings.js";
import type { ConfigIssue, ConfigKey } from "../../config/config-schema.js";
import { nearestName } from "../../types/nearest-name.js";

/** Where a value came from, as an error names it: `--max-iterations`, `CTXKIT_MODEL`, or a file. */
export type ValueOrigin = { flag: string } | { variable: string } | { file: string };

/** The candidate nearest to what was typed, if it is near enough to be a typo. */
export function didYouMean(typed: string, candidates: readonly string[]): string | undefined {
  if (typed === "") return undefined;
  return nearestName(typed, candidates, Math.max(2, Math.floor(typed.length / 3)), { ignoreCase: true });
}

/**
 * One sentence for a value the schema refused, naming where it came from and what was wrong:
 * `~/.config/ctxkit/config.json: 'maxIterations' must be a positive whole number, got 0.` or
 * `Unknown status bar mode 'sometimes'. Use one of: auto, replace, append, off.` (for --status-bar).
 */
export function describeConfigIssue(issue: ConfigIssue, origin: ValueOrigin, key: ConfigKey | undefined, raw: unknown): string {
  const place = "file" in origin ? `${origin.file}: ` : "";
  if (issue.kind === "unknown_keys") {
    const keys = Object.keys(configSettings);
    return issue.keys
      .map((unknown) => {
        const suggestion = didYouMean(unknown, keys);
        return `${place}unknown key '${unknown}'${suggestion ? ` (did you mean '${suggestion}'?)` : ""}.`;
      })
      .join(" ") + ` Known keys: ${keys.join(", ")}.`;
  }
  const name = "file" in origin ? `'${key}'` : "flag" in origin ? origin.flag : origin.variable;
  const shown = typeof raw === "string" ? `'${raw}'` : JSON.stringify(raw);
  if (issue.kind === "not_one_of" && key !== undefined) {
    const setting = configSettings[key] as SettingDeclaration;
    // The settings table lists every choice setting's values (the schema is built from the same lists).
    const values = setting.values ?? [];
    const suggestion = typeof raw === "string" ? didYouMean(raw, values) : undefined;
    // 'openai' is no typo of 'openai-compatible' (too many edits away) but the first word of two values.
    const extending = typeof raw === "string" && suggestion === undefined ? values.filter((value) => value.toLowerCase().startsWith(`${raw.toLowerCase()}-`)) : [];
    const hint = suggestion ? ` (did you mean '${suggestion}'?)` : extending.length > 0 ? ` (did you mean ${extending.map((value) => `'${value}'`).join(" or ")}?)` : "";
    const where = "file" in origin ? `${place}${name}: ` : "variable" in origin ? `${origin.variable}: ` : "";
    return `${where}Unknown ${setting.noun ?? key} ${shown}${hint}. Use one of: ${values.join(", ")}.`;
  }
  const message = issue.kind === "invalid" ? issue.message : "is not one of its values";
  const item = issue.kind === "invalid" && issue.item !== undefined ? ` (item ${issue.item})` : "";
  return `${place}${name} ${message}${item}, got ${shown}.`;
}
