import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { openWorkspaceFile } from "../tools/open-workspace-file.js";
import { resolveWorkspacePath, toWorkspaceRelative } from "../tools/workspace-path.js";
import { ToolError, type Tool } from "../types/index.js";
import type { Skill } from "./skill.js";

export interface SkillFileArgs {
  skill: string;
  path: string;
}

/** Most characters returned from one file (longer files are cut with a note). */
const maxFileChars = 50_000;
const maxListedFiles = 50;

/**
 * Reads a file inside a skill's folder (the third layer of disclosure: references, templates,
 * scripts to look at). Paths are confined to the folder by the workspace rules: no `..`, no absolute
 * path elsewhere, no symbolic link leading out.
 */
export function createSkillFileTool(skills: readonly Skill[] | (() => readonly Skill[])): Tool<SkillFileArgs> {
  // A getter: the files of skills announced mid-session are readable too.
  const current = typeof skills === "function" ? skills : () => skills;
  return {
    name: "skill_file",
    description:
      "Read a file inside a skill's folder (a reference, template or script the skill's instructions mention). " +
      'The path is relative to the skill\'s folder. Example: {"skill": "pdf-forms", "path": "references/fields.md"}',
    parameters: {
      type: "object",
      properties: {
        skill: { type: "string", description: "The skill's name." },
        path: { type: "string", description: "A path relative to the skill's folder, e.g. \"references/guide.md\"." },
      },
      required: ["skill", "path"],
      additionalProperties: false,
    },
    parallelSafe: true,
    async execute(args) {
      const byName = new Map(current().map((skill) => [skill.name, skill]));
      const skill = byName.get(args.skill);
      if (!skill) throw new ToolError("not_found", `Skill '${args.skill}' not found. Available: ${[...byName.keys()].join(", ") || "none"}.`);
      const absolute = await resolveInsideSkill(skill, args.path);
      const info = await stat(absolute);
      if (info.isDirectory()) {
        throw new ToolError("invalid_arguments", `'${args.path}' is a folder. Files of skill '${skill.name}': ${(await listSkillFiles(skill)).join(", ")}.`);
      }
      // Opened as read_file opens: O_NONBLOCK and O_NOFOLLOW, the descriptor checked to be a regular
      // file inside the folder — a FIFO or a device is refused instead of hanging the call (issue 24).
      const opened = await openWorkspaceFile(skill.directory, args.path, { mode: "read", toolName: "skill_file" }).catch((error: unknown) => {
        throw error instanceof ToolError && error.kind === "permission" ? outsideError(skill, args.path) : error;
      });
      let text: string;
      try {
        // Bounded: never more bytes than the characters returned can take (4 per character).
        const length = Math.min(opened.stats.size, maxFileChars * 4);
        const { bytesRead, buffer } = await opened.handle.read(Buffer.alloc(length), 0, length, 0);
        text = buffer.subarray(0, bytesRead).toString("utf8");
      } finally {
        await opened.handle.close();
      }
      return text.length <= maxFileChars ? text : `${text.slice(0, maxFileChars)}\n[cut at ${maxFileChars} of ${text.length} characters]`;
    },
  };
}

async function resolveInsideSkill(skill: Skill, requested: string): Promise<string> {
  try {
    return await resolveWorkspacePath(skill.directory, requested, { mustExist: true });
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    // The workspace rules' messages speak of the workspace; say it in the skill's terms.
    if (error.kind === "permission") throw outsideError(skill, requested);
    if (error.kind === "not_found") {
      throw new ToolError("not_found", `'${requested}' does not exist in skill '${skill.name}'. Its files: ${(await listSkillFiles(skill)).join(", ")}.`);
    }
    throw error;
  }
}

function outsideError(skill: Skill, requested: string): ToolError {
  return new ToolError("permission", `'${requested}' is outside the folder of skill '${skill.name}'; use a path relative to it, e.g. 'SKILL.md'.`);
}

/** The skill's files, relative to its folder, breadth first, at most `maxListedFiles`. */
export async function listSkillFiles(skill: Skill): Promise<string[]> {
  const files: string[] = [];
  const queue = [skill.directory];
  while (queue.length > 0 && files.length < maxListedFiles) {
    const directory = queue.shift()!;
    const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((left, right) => (left.name < right.name ? -1 : 1))) {
      const absolute = path.join(directory, entry.name);
      if (entry.isDirectory()) queue.push(absolute);
      else if (entry.isFile() && files.length < maxListedFiles) files.push(toWorkspaceRelative(skill.directory, absolute));
    }
  }
  return files;
}
