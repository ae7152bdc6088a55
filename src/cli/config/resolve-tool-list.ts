import { ConfigError } from "../../types/index.js";
import { didYouMean } from "./describe-config-issue.js";
import { expandToolList, knownToolNames } from "../../config/config-values.js";
import type { Candidate, SettingOrigin } from "./resolve-settings.js";

function describeOrigin(origin: SettingOrigin): string {
  if (origin.source === "flag") return `It is named in ${origin.flag}.`;
  if (origin.source === "environment") return `It is named in ${origin.variable}.`;
  return `It is named in 'tools' of ${origin.file}.`;
}

/** Names no built-in tool has are refused where they were written, with the nearest real name. */
function checkToolNames(names: readonly string[], origin: SettingOrigin): void {
  const unknown = names.filter((name) => !knownToolNames.includes(name));
  if (unknown.length === 0) return;
  const named = unknown.map((name) => {
    const nearest = didYouMean(name, knownToolNames);
    return nearest ? `${name} (did you mean ${nearest}?)` : name;
  });
  throw new ConfigError(
    "tool_unknown",
    `Unknown tool${unknown.length > 1 ? "s" : ""}: ${named.join(", ")}. ` +
      `${describeOrigin(origin)} Built-in tools: ${knownToolNames.join(", ")} (bash only when named).`,
  );
}

/**
 * The built-in tools to offer. A flag or a variable chooses outright. A workspace's config (which
 * comes with the repository) may only narrow the set the user chose — the user's config, else the
 * default: `["all"]` there does not turn bash on; what it names beyond is left out, with a warning.
 */
export function resolveToolList(candidates: Array<Candidate<"tools">>, defaults: readonly string[], warnings: string[]): { names: string[]; origin: SettingOrigin } {
  for (const candidate of candidates) checkToolNames(expandToolList(candidate.value, defaults), candidate.origin);
  const first = candidates[0];
  if (first && first.origin.source !== "workspace config") return { names: expandToolList(first.value, defaults), origin: first.origin };
  const user = candidates.find((candidate) => candidate.origin.source === "user config");
  const chosen = user ? expandToolList(user.value, defaults) : [...defaults];
  if (first === undefined) return { names: chosen, origin: user?.origin ?? { source: "default" } };
  const named = expandToolList(first.value, defaults);
  const dropped = named.filter((name) => !chosen.includes(name));
  if (dropped.length > 0) {
    warnings.push(
      `${first.origin.file}: 'tools' names ${dropped.join(", ")}, which your own settings do not turn on; left out ` +
        '(a workspace\'s config may only narrow your tools). Pass --tools, or set "tools" in ~/.config/ctxkit/config.json.',
    );
  }
  return { names: named.filter((name) => chosen.includes(name)), origin: first.origin };
}
