import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { isInside } from "../tools/workspace-path.js";
import { defaultSkillFileLimits, parseSkillFile, type SkillFileLimits } from "./parse-skill-file.js";
import type { Skill, SkillCatalog, SkillWarning } from "./skill.js";
import { describeNodeError, nodeErrorCode } from "../types/node-error-code.js";

export interface LoadSkillsOptions {
  /** The workspace whose `.ctxkit/skills`, `.agents/skills` and `.claude/skills` are searched. */
  workspace?: string;
  /** The home directory for `~/.config/ctxkit/skills` (default: the user's). */
  home?: string;
  /** Further skill directories (each holds one folder per skill); searched first, in this order. */
  directories?: readonly string[];
  /** Search the workspace and home locations too (default true). */
  includeDefaultDirectories?: boolean;
  limits?: SkillFileLimits;
  /** Most skills taken from one directory (default 500). */
  maxSkillsPerDirectory?: number;
}

/** The standard places, in the order they are searched after the user's own directories. */
export function defaultSkillDirectories(workspace: string | undefined, home: string): string[] {
  const inWorkspace = workspace === undefined ? [] : [".ctxkit", ".agents", ".claude"].map((folder) => path.join(workspace, folder, "skills"));
  return [...inWorkspace, path.join(home, ".config", "ctxkit", "skills")];
}

/**
 * Finds every `<directory>/<name>/SKILL.md`: the directories the user gave first, then the workspace's,
 * then the home one. The first skill of a name wins and a warning names the one it shadows; a file
 * that cannot be used is skipped with a warning. Never throws for what is on disk.
 */
export async function loadSkills(options: LoadSkillsOptions = {}): Promise<SkillCatalog> {
  const limits = { ...defaultSkillFileLimits, ...options.limits };
  const maxPerDirectory = options.maxSkillsPerDirectory ?? 500;
  const given = (options.directories ?? []).map((directory) => path.resolve(options.workspace ?? ".", directory));
  const workspace = options.workspace && path.resolve(options.workspace);
  const standard = options.includeDefaultDirectories === false ? [] : defaultSkillDirectories(workspace, options.home ?? homedir());
  // The workspace's own skill folders must stay in the workspace: a cloned repository's
  // `.ctxkit/skills` that is a symbolic link elsewhere is not read (issue 24).
  const workspaceRoots = new Set(workspace === undefined ? [] : defaultSkillDirectories(workspace, "/").slice(0, -1));
  const warnings: SkillWarning[] = [];
  const byName = new Map<string, Skill>();
  const searched = new Set<string>();
  for (const [index, directory] of [...given, ...standard].entries()) {
    if (searched.has(directory)) continue;
    searched.add(directory);
    const root = await confinedRoot(directory, workspaceRoots.has(directory) ? workspace : undefined, warnings);
    if (root === undefined) continue;
    const folders = await listFolders(directory, index < given.length, warnings);
    if (folders.length > maxPerDirectory) {
      warnings.push({ code: "skill_limit_reached", path: directory, message: `${directory}: ${folders.length} folders, only the first ${maxPerDirectory} (by name) are read.` });
    }
    for (const folderName of folders.slice(0, maxPerDirectory)) {
      const skillDirectory = path.join(directory, folderName);
      const file = path.join(skillDirectory, "SKILL.md");
      if (!(await staysInside(root, skillDirectory, file, warnings))) continue;
      const text = await readSkillText(file, limits.maxFileChars, warnings);
      if (text === undefined) continue;
      const parsed = parseSkillFile(text, { path: file, directory: skillDirectory, folderName }, limits);
      if ("warning" in parsed) {
        warnings.push(parsed.warning);
        continue;
      }
      warnings.push(...parsed.warnings);
      const winner = byName.get(parsed.skill.name);
      if (winner) {
        warnings.push({ code: "skill_shadowed", path: file, message: `${file}: skill '${parsed.skill.name}' is shadowed by ${winner.path}, found first; rename one of them to use both.` });
        continue;
      }
      byName.set(parsed.skill.name, parsed.skill);
    }
  }
  const skills = [...byName.values()].sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  return { skills, warnings };
}

/** The real path of a skills root, or undefined when it leaves the workspace it belongs to (warned) or does not exist. */
async function confinedRoot(directory: string, workspace: string | undefined, warnings: SkillWarning[]): Promise<string | undefined> {
  let real: string;
  try {
    real = await realpath(directory);
  } catch {
    return directory; // missing: listFolders says so when the user named it
  }
  if (workspace === undefined) return real;
  const workspaceReal = await realpath(workspace).catch(() => workspace);
  if (isInside(workspaceReal, real)) return real;
  warnings.push({ code: "skill_outside_root", path: directory, message: `${directory}: resolves to ${real}, outside the workspace; its skills are not loaded. Replace the link with a folder.` });
  return undefined;
}

/** Whether a skill folder and its SKILL.md resolve inside the root they were found in; warns when not. */
async function staysInside(root: string, skillDirectory: string, file: string, warnings: SkillWarning[]): Promise<boolean> {
  const folderReal = await realpath(skillDirectory).catch(() => undefined);
  if (folderReal === undefined) return false;
  if (!isInside(root, folderReal) || folderReal === root) {
    warnings.push({ code: "skill_outside_root", path: skillDirectory, message: `${skillDirectory}: resolves to ${folderReal}, outside ${root}; the skill is not loaded. Replace the link with a folder.` });
    return false;
  }
  const fileReal = await realpath(file).catch(() => undefined);
  if (fileReal !== undefined && !isInside(folderReal, fileReal)) {
    warnings.push({ code: "skill_outside_root", path: file, message: `${file}: resolves to ${fileReal}, outside its skill folder; the skill is not loaded. Replace the link with the file.` });
    return false;
  }
  return true;
}

async function listFolders(directory: string, givenByUser: boolean, warnings: SkillWarning[]): Promise<string[]> {
  try {
    const entries = await readdir(directory, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => entry.name)
      .filter((name) => !name.startsWith("."))
      .sort();
  } catch (error) {
    // The standard places usually do not exist; a directory the user named must.
    if (givenByUser) warnings.push({ code: "skill_directory_unreadable", path: directory, message: `${directory}: cannot read the skills directory (${describeNodeError(error)}).` });
    return [];
  }
}

async function readSkillText(file: string, maxFileChars: number, warnings: SkillWarning[]): Promise<string | undefined> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return undefined;
    // Checked before reading, so a huge file is never loaded into memory (4 bytes per character at most).
    if (info.size > maxFileChars * 4) {
      warnings.push({ code: "skill_file_too_large", path: file, message: `${file}: the file has ${info.size} bytes, more than the ${maxFileChars} characters allowed. The skill is skipped.` });
      return undefined;
    }
    return await readFile(file, "utf8");
  } catch (error) {
    // A folder without SKILL.md is not a skill (a helper folder), so nothing to warn about.
    if (nodeErrorCode(error) === "ENOENT") return undefined;
    warnings.push({ code: "skill_directory_unreadable", path: file, message: `${file}: cannot read (${describeNodeError(error)}). The skill is skipped.` });
    return undefined;
  }
}

