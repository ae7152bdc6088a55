import { stat } from "node:fs/promises";
import path from "node:path";
import { isInside } from "../tools/workspace-path.js";
import { maxDescriptionLength } from "./parse-skill-file.js";
import type { Skill } from "./skill.js";

export type SkillLintCode =
  | "description_without_when"
  | "description_without_when_not"
  | "description_vague"
  | "description_too_long"
  | "body_empty"
  | "body_too_long"
  | "reference_broken"
  | "reference_unverified"
  | "reference_outside_skill";

export interface SkillLintFinding {
  code: SkillLintCode;
  severity: "error" | "warning";
  skill: string;
  message: string;
}

/** agentskills.io: keep SKILL.md under 500 lines and move detail into referenced files. */
const maxBodyLines = 500;
const maxBodyWords = 5_000;

/**
 * Checks a skill against the seed's rules for a routing description (it says when to use the skill
 * and when not; "help with backend" routes nothing), the body's length and the files it refers to.
 * Findings are data; the CLI prints them.
 */
export async function lintSkill(skill: Skill): Promise<SkillLintFinding[]> {
  const findings: SkillLintFinding[] = [...lintDescription(skill), ...lintBody(skill)];
  for (const { reference, linked } of findFileReferences(skill.body)) {
    const absolute = path.resolve(skill.directory, reference);
    if (!isInside(skill.directory, absolute)) {
      findings.push({ code: "reference_outside_skill", severity: "error", skill: skill.name, message: `'${reference}' points outside the skill's folder; skill_file cannot read it. Keep referenced files inside ${skill.directory}.` });
      continue;
    }
    if (await exists(absolute)) continue;
    // A link, or a backticked path into one of the skill's own folders (`scripts/fill.py`, `references/guide.md`), names a
    // file the skill ships, so its absence is an error. Other backticked paths are often files the instructions have the
    // agent create (`evals/evals.json`) or paths inside the user's documents (`word/_rels/document.xml.rels` in a .docx):
    // worth a look, not a failure.
    if (linked || (await isSkillFolder(skill.directory, reference))) {
      findings.push({ code: "reference_broken", severity: "error", skill: skill.name, message: `'${reference}' is referenced but does not exist in ${skill.directory}.` });
    } else {
      findings.push({ code: "reference_unverified", severity: "warning", skill: skill.name, message: `'${reference}' is not in ${skill.directory}; if the skill ships it, add it (a file the instructions create or one of the user's can stay as it is).` });
    }
  }
  return findings;
}

/** The folders the Agent Skills spec gives a skill (agentskills.io): its own even when missing, so a lost `scripts/` fails. */
const specSkillFolders = new Set(["scripts", "references", "assets"]);

/** Whether the reference's first folder is one of the skill's own: a spec folder, or one that exists beside SKILL.md. */
async function isSkillFolder(directory: string, reference: string): Promise<boolean> {
  const first = reference.replace(/^\.\//, "").split("/")[0]!;
  if (specSkillFolders.has(first)) return true;
  return first !== "" && first !== "." && first !== ".." && (await exists(path.join(directory, first)));
}

/** A negation just before a when-clause makes it a when-not one: "do not use this skill when", "avoid using it for", "skip when". */
const negatedBefore = String.raw`(?<!(?:\bnot|n't|\bnever|\bavoid|\bskip|\bexcept)\s+(?:(?:use|using)\s+)?(?:(?:it|this(?:\s+skill)?)\s+)?)`;
const whenClause = new RegExp(String.raw`\b${negatedBefore}(?:use (?:it |this (?:skill )?)?(?:for|to|if)\b|when(?:ever)? (?!not\b)\w)|\bif the (?:user|task)`);

export function lintDescription(skill: Skill): SkillLintFinding[] {
  const findings: SkillLintFinding[] = [];
  const text = skill.description.toLowerCase();
  const words = text.split(/\s+/).filter((word) => word !== "");
  if (words.length < 8 || /^(helps?|assists?|supports?|handles?)( (with|in|on))? [\w\s-]{0,30}\.?$/.test(text)) {
    findings.push({ code: "description_vague", severity: "warning", skill: skill.name, message: `The description "${skill.description.slice(0, 80)}" is too vague to route on; say what the skill does, for which inputs, and when to use it.` });
  }
  if (skill.description.length > maxDescriptionLength) {
    findings.push({ code: "description_too_long", severity: "warning", skill: skill.name, message: `The description has ${skill.description.length} characters, more than the ${maxDescriptionLength} the Agent Skills spec allows; agents that enforce the limit skip the skill, and ctxkit's catalog lists only the first ${maxDescriptionLength}. Shorten it.` });
  }
  // Any "when …" or "use for / to / if" clause says when ("Use this skill when", "when building new UI", "When Claude
  // needs to"), except a when-not one ("do not use for PDFs", "avoid when …"), which the next rule looks for.
  if (!whenClause.test(text)) {
    findings.push({ code: "description_without_when", severity: "warning", skill: skill.name, message: "The description does not say when to use the skill; add \"Use when …\"." });
  }
  if (!/\b(do not|don't|not for|never|instead|unless|avoid|except)\b/.test(text)) {
    findings.push({ code: "description_without_when_not", severity: "warning", skill: skill.name, message: "The description does not say when not to use the skill; add \"Do not use for …\" so it is not picked for near misses." });
  }
  return findings;
}

function lintBody(skill: Skill): SkillLintFinding[] {
  if (skill.body.trim() === "") return [{ code: "body_empty", severity: "error", skill: skill.name, message: "SKILL.md has no instructions after the frontmatter." }];
  const lines = skill.body.split("\n").length;
  const words = skill.body.split(/\s+/).length;
  if (lines > maxBodyLines || words > maxBodyWords) {
    return [{ code: "body_too_long", severity: "warning", skill: skill.name, message: `The body has ${lines} lines and ${words} words (keep it under ${maxBodyLines} lines and ${maxBodyWords} words); move detail into referenced files.` }];
  }
  return [];
}

/**
 * Relative file paths the body refers to: Markdown link targets and backticked paths with a folder
 * and an extension (`scripts/fill.py`, `references/guide.md`). URLs and anchors are not files.
 */
export function extractFileReferences(body: string): string[] {
  return findFileReferences(body).map(({ reference }) => reference);
}

/** The references with how they were written: `linked` for a Markdown link, else a backticked path. */
function findFileReferences(body: string): Array<{ reference: string; linked: boolean }> {
  const found = new Map<string, boolean>();
  for (const match of body.matchAll(/\]\(([^)\s]+)\)/g)) found.set(match[1]!, true);
  // A bare file name ("`fill.py`") is often described under a heading naming its folder, so only paths with a folder count.
  for (const match of body.matchAll(/`((?:\.{1,2}\/|[\w.-]+\/)[\w./-]*\.\w+)`/g)) if (!found.has(match[1]!)) found.set(match[1]!, false);
  return [...found]
    .map(([reference, linked]) => ({ reference: reference.split("#")[0]!, linked }))
    .filter(({ reference }) => reference !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(reference) && !reference.startsWith("/") && !reference.startsWith("~"));
}

async function exists(absolute: string): Promise<boolean> {
  try {
    await stat(absolute);
    return true;
  } catch {
    return false;
  }
}
