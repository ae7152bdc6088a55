import { escapeForTerminal } from "../../context/escape-for-terminal.js";
import { lintSkill, loadSkills, type SkillCatalog, type SkillLintFinding } from "../../skills/index.js";
import { parseCommandLine, pickCommonOptions } from "../cli-options.js";
import type { CliIo } from "../cli-io.js";
import { resolveConfig } from "../resolve-config.js";
import { requireWorkspaceDirectory } from "../require-workspace-directory.js";
import { describeUnknownAction } from "../describe-unknown-action.js";
import { refuseExtraArguments } from "../refuse-extra-arguments.js";

export const skillsHelp = `Usage: ctxkit skills list|show <name>|lint [name] [options]

The Agent Skills an agent in this workspace would get: <dir>/<name>/SKILL.md under --skills <dir>
(repeatable, searched first), <workspace>/.ctxkit/skills, .agents/skills, .claude/skills and
~/.config/ctxkit/skills. The first skill of a name wins; skipped files are listed as warnings.

  list        name, description (on one line) and path of each skill; one whose SKILL.md sets
              disable-model-invocation: true is marked: only the person starts it, by typing /name
  show <name> the skill's SKILL.md location and instructions
  lint [name] check routing descriptions (when to use, when not), body length and file references;
              exit code 1 when a finding is an error or (without a name) a SKILL.md was skipped

Options:
  --skills <dir>     a skills folder to search first (repeatable; relative to the workspace)
  --workspace <dir>  the workspace (default: current directory)
  --json             print JSON: list → {"skills": [{"name", "description", "path",
                     "disableModelInvocation"?}], "warnings": [...]}

Exit codes: 0 done; 1 a skill was not found, or lint found an error or a skipped SKILL.md;
2 a usage error.
`;

export const skillsOptions = pickCommonOptions("workspace", "skills", "json");

/** `ctxkit skills list|show|lint`. */
export async function skillsCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, positionals } = parseCommandLine(args, skillsOptions);
  const [action, name] = positionals;
  if (flags.help) {
    io.stdout.write(skillsHelp);
    return 0;
  }
  if (action === undefined) {
    io.stderr.write(`ctxkit skills: say which: list, show <name> or lint [name].\n\n${skillsHelp}`);
    return 2;
  }
  if (action === "list") refuseExtraArguments(positionals, 1, "skills list takes no name (skills show <name> shows one)");
  if (action === "show" || action === "lint") refuseExtraArguments(positionals, 2, `skills ${action} takes one skill name`);
  const config = resolveConfig(flags, io.env, { cwd: io.cwd });
  requireWorkspaceDirectory(config.workspace);
  const catalog = await loadSkills({ workspace: config.workspace, directories: config.skillDirectories, ...(io.env.HOME ? { home: io.env.HOME } : {}) });
  if (action === "list") return listSkills(catalog, flags.json === true, io);
  if (action === "show") return showSkill(catalog, name, io);
  if (action === "lint") return lintSkills(catalog, name, flags.json === true, io);
  io.stderr.write(`ctxkit skills: ${describeUnknownAction(action, ["list", "show", "lint"])}; use list, show <name> or lint.\n`);
  return 2;
}

function listSkills(catalog: SkillCatalog, json: boolean, io: CliIo): number {
  if (json) {
    const skills = catalog.skills.map((skill) => ({ name: skill.name, description: skill.description, path: skill.path, ...(skill.disableModelInvocation ? { disableModelInvocation: true } : {}) }));
    io.stdout.write(`${JSON.stringify({ skills, warnings: catalog.warnings })}\n`);
    return 0;
  }
  for (const skill of catalog.skills) {
    const userOnly = skill.disableModelInvocation ? " (only by typing /" + skill.name + ": disable-model-invocation)" : "";
    io.stdout.write(`${skill.name}${userOnly}\n  ${showDescription(skill.description)}\n  ${escapeForTerminal(skill.path)}\n`);
  }
  if (catalog.skills.length === 0) io.stdout.write("No skills found.\n");
  writeWarnings(catalog, io);
  return 0;
}

function showSkill(catalog: SkillCatalog, name: string | undefined, io: CliIo): number {
  const skill = catalog.skills.find((candidate) => candidate.name === name);
  if (!skill) {
    io.stderr.write(`ctxkit skills show: ${name === undefined ? "give a skill's name" : `no skill '${name}'`}. Skills: ${catalog.skills.map((entry) => entry.name).join(", ") || "none"}.\n`);
    // A missing name is a usage error (2); a name that matches no skill is a failed lookup (1).
    return name === undefined ? 2 : 1;
  }
  // A skill folder may be a cloned repository's: its text is shown with terminal controls escaped.
  const allowed = skill.allowedTools ? `allowed-tools: ${escapeForTerminal(skill.allowedTools.join(" "))}\n` : "";
  io.stdout.write(`name: ${skill.name}\ndescription: ${showDescription(skill.description)}\npath: ${escapeForTerminal(skill.path)}\n${allowed}\n${escapeForTerminal(skill.body, { keepLineBreaks: true })}\n`);
  return 0;
}

/**
 * A description on one line: a YAML block scalar (`description: |-`, as anthropics/skills' claude-api
 * writes it) keeps its line breaks, which the escaping showed as `\u000A` in the middle of the text.
 * Each break, with the blanks around it, reads as one space; every other control is still escaped.
 */
function showDescription(description: string): string {
  return escapeForTerminal(description.replace(/[ \t]*(?:(?:\r\n|\r|\n)[ \t]*)+/g, " "));
}

async function lintSkills(catalog: SkillCatalog, name: string | undefined, json: boolean, io: CliIo): Promise<number> {
  const selected = name === undefined ? catalog.skills : catalog.skills.filter((skill) => skill.name === name);
  if (name !== undefined && selected.length === 0) {
    io.stderr.write(`ctxkit skills lint: no skill '${name}'. Skills: ${catalog.skills.map((entry) => entry.name).join(", ") || "none"}.\n`);
    return 1;
  }
  const findings: SkillLintFinding[] = (await Promise.all(selected.map((skill) => lintSkill(skill)))).flat();
  // A SKILL.md that was not loaded (bad frontmatter, …) fails a full lint: an agent would not get that skill. A shadowed one is a
  // choice (the first of a name wins), one over-long description loads anyway (a lint warning), and `lint <name>` is about that skill only.
  const skipped = name === undefined ? catalog.warnings.filter((warning) => !loadedAnyway.has(warning.code)).length : 0;
  const errors = findings.filter((finding) => finding.severity === "error").length;
  if (json) io.stdout.write(`${JSON.stringify({ findings, warnings: catalog.warnings })}\n`);
  else {
    writeWarnings(catalog, io);
    for (const finding of findings) io.stdout.write(`${finding.skill}: ${finding.severity} ${finding.code}: ${escapeForTerminal(finding.message)}\n`);
    io.stdout.write(`${summarizeLint(selected.length, skipped, findings.length, errors)}\n`);
  }
  return errors > 0 || skipped > 0 ? 1 : 0;
}

/** "2 skills: 1 loaded, 1 skipped (see above), 0 findings. Exit code 1: a skill was skipped." */
function summarizeLint(loaded: number, skipped: number, findings: number, errors: number): string {
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
  const head = `${count(loaded + skipped, "skill")}: ${loaded} loaded, ${skipped} skipped${skipped > 0 ? " (see above)" : ""}, ${count(findings, "finding")}${errors > 0 ? ` (${count(errors, "error")})` : ""}.`;
  const reasons = [
    ...(skipped > 0 ? [skipped === 1 ? "a skill was skipped" : `${skipped} skills were skipped`] : []),
    ...(errors > 0 ? [errors === 1 ? "a finding is an error" : `${errors} findings are errors`] : []),
  ];
  return reasons.length === 0 ? head : `${head} Exit code 1: ${reasons.join(" and ")}.`;
}

const loadedAnyway = new Set<SkillCatalog["warnings"][number]["code"]>(["skill_shadowed", "skill_description_too_long", "skill_frontmatter_repaired"]);

function writeWarnings(catalog: SkillCatalog, io: CliIo): void {
  for (const warning of catalog.warnings) io.stderr.write(`ctxkit skills: ${warning.code}: ${escapeForTerminal(warning.message)}\n`);
}
