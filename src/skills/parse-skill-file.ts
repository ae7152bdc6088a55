import { createLazyRequire } from "../types/lazy-require.js";
import { quotePlainColonValues } from "./quote-plain-colon-values.js";
import type { Skill, SkillWarning } from "./skill.js";

const requireFromHere = createLazyRequire(import.meta.url);
// yaml is loaded by the first SKILL.md, not when the CLI starts (most workspaces have no skills).
let parseYaml: typeof import("yaml").parse | undefined;

/** Limits on one `SKILL.md`: the file is read from disk and may come from anyone. */
export interface SkillFileLimits {
  /** Most characters in the whole file (default 256 000). */
  maxFileChars?: number;
  /** Most characters in the frontmatter (default 16 000). */
  maxFrontmatterChars?: number;
  /** Most YAML alias expansions (default 100): a "billion laughs" document is rejected, not expanded. */
  maxAliasCount?: number;
}

export const defaultSkillFileLimits: Required<SkillFileLimits> = { maxFileChars: 256_000, maxFrontmatterChars: 16_000, maxAliasCount: 100 };

/** The agentskills.io name rule: 1–64 lowercase letters, digits and hyphens, no leading, trailing or doubled hyphen. */
const namePattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const maxNameLength = 64;

/** Whether `name` follows the agentskills.io name rule (what a SKILL.md's `name` must be). */
export function isSkillName(name: string): boolean {
  return name.length <= maxNameLength && namePattern.test(name);
}
export const maxDescriptionLength = 1024;

/**
 * A loaded skill (with what is wrong with it but does not stop it from loading, e.g. a description
 * over the spec's 1024 characters), or why the file was skipped.
 */
export type ParsedSkillFile = { skill: Skill; warnings: SkillWarning[] } | { warning: SkillWarning };

/**
 * Parses the text of `<directory>/SKILL.md`. Every problem is a warning naming the file and the fix;
 * nothing here throws on bad input. Pure.
 */
export function parseSkillFile(text: string, location: { path: string; directory: string; folderName: string }, limits: SkillFileLimits = {}): ParsedSkillFile {
  const { maxFileChars, maxFrontmatterChars, maxAliasCount } = { ...defaultSkillFileLimits, ...limits };
  const skipped = (code: SkillWarning["code"], message: string): ParsedSkillFile => ({ warning: { code, path: location.path, message: `${location.path}: ${message} The skill is skipped.` } });
  if (text.length > maxFileChars) return skipped("skill_file_too_large", `the file has ${text.length} characters, more than the ${maxFileChars} allowed; move long material into files the skill refers to.`);

  const normalised = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const match = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(normalised);
  if (!match) return skipped("skill_frontmatter_missing", "no YAML frontmatter; the file must start with '---', then 'name:' and 'description:', then '---'.");
  const frontmatterText = match[1]!;
  if (frontmatterText.length > maxFrontmatterChars) return skipped("skill_frontmatter_invalid", `the frontmatter has ${frontmatterText.length} characters, more than the ${maxFrontmatterChars} allowed.`);

  let frontmatter: unknown;
  const warnings: SkillWarning[] = [];
  parseYaml ??= (requireFromHere("yaml") as typeof import("yaml")).parse;
  const readYaml = (yamlText: string) => parseYaml!(yamlText, { maxAliasCount, uniqueKeys: true, prettyErrors: true }) as unknown;
  try {
    frontmatter = readYaml(frontmatterText);
  } catch (error) {
    // The parser's first line ends with ":" before the excerpt it would print under it.
    const reason = (error instanceof Error ? error.message.split("\n")[0]! : String(error)).replace(/:$/, "");
    // Other agents accept an unquoted ': ' in a value (the commonest fault of shared skills): read it
    // as if quoted, and say so, rather than lose the skill.
    const repaired = quotePlainColonValues(frontmatterText);
    try {
      if (!repaired) throw error;
      frontmatter = readYaml(repaired.text);
    } catch {
      return skipped("skill_frontmatter_invalid", `the frontmatter is not valid YAML (${reason}).`);
    }
    const keys = repaired.keys.map((key) => `'${key}'`).join(", ");
    warnings.push({
      code: "skill_frontmatter_repaired",
      path: location.path,
      message: `${location.path}: the frontmatter is not valid YAML (${reason}): ${keys} holds ': ' without quotes. The skill is loaded, reading ${repaired.keys.length === 1 ? "it" : "them"} as if quoted; quote the value (or use '>-') so every agent reads it.`,
    });
  }
  if (typeof frontmatter !== "object" || frontmatter === null || Array.isArray(frontmatter)) {
    return skipped("skill_frontmatter_invalid", "the frontmatter must be a YAML mapping with 'name' and 'description'.");
  }
  const fields = frontmatter as Record<string, unknown>;

  const name = fields.name;
  if (typeof name !== "string" || name.trim() === "") return skipped("skill_name_missing", "the frontmatter has no 'name'; add 'name: <folder name>'.");
  if (!isSkillName(name)) {
    return skipped("skill_name_invalid", `the name '${name.slice(0, 80)}' is not 1–${maxNameLength} lowercase letters, digits and single hyphens.`);
  }
  if (name !== location.folderName) return skipped("skill_name_mismatch", `the name '${name}' differs from its folder '${location.folderName}'; rename one to match the other.`);

  const description = fields.description;
  if (typeof description !== "string" || description.trim() === "") {
    return skipped("skill_description_missing", "the frontmatter has no 'description'; say what the skill does and when to use it.");
  }
  // The spec caps descriptions at 1024 characters, but real skills exceed it (anthropics/skills'
  // claude-api has over 1,068) and the agents people use load them. So the skill loads with a warning,
  // and the catalog lists only the first 1024 characters (renderSkillCatalog), cut further to its budget.
  if (description.trim().length > maxDescriptionLength) {
    warnings.push({
      code: "skill_description_too_long",
      path: location.path,
      message: `${location.path}: the description has ${description.trim().length} characters, more than the ${maxDescriptionLength} the Agent Skills spec allows; the skill is loaded and the catalog lists the first ${maxDescriptionLength}. Shorten it.`,
    });
  }

  const allowedTools = readAllowedTools(fields["allowed-tools"]);
  const metadata = readMetadata(fields.metadata);
  // Claude Code's field; a skill that says so (a deploy, a handoff) must not be started by the model.
  const userOnly = fields["disable-model-invocation"] === true || fields["disable-model-invocation"] === "true";
  return {
    skill: {
      name,
      description: description.trim(),
      path: location.path,
      directory: location.directory,
      body: normalised.slice(match[0].length).trim(),
      ...(allowedTools ? { allowedTools } : {}),
      ...(metadata ? { metadata } : {}),
      ...(userOnly ? { disableModelInvocation: true as const } : {}),
    },
    warnings,
  };
}

// The spec writes `allowed-tools` as a space-separated string; a YAML list is accepted too.
function readAllowedTools(value: unknown): string[] | undefined {
  if (typeof value === "string") return value.split(/\s+/).filter((tool) => tool !== "");
  if (Array.isArray(value)) return value.filter((tool): tool is string => typeof tool === "string");
  return undefined;
}

function readMetadata(value: unknown): Record<string, string> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string");
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}
