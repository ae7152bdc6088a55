import { noteHarnessWrite } from "../security/harness-writes.js";
import { readFile, rename, writeFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from "../types/private-file-modes.js";
import { isSkillName } from "../skills/index.js";
import { makeDirectoryTree } from "../types/make-directory-tree.js";

// Which skills this workspace used lately, most recent first: the catalog of a new session cuts the
// descriptions of the least recently used first when it is over its budget (as Claude Code does).
// A small file beside the sessions; a resumed session keeps the catalog it was started with.
const fileName = "skills-used.json";
const maxNames = 100;
const maxFileBytes = 64 * 1024;

/** The names recorded, most recent first; an absent, oversized or malformed file reads as none. */
export async function readRecentSkillUse(dataDir: string): Promise<string[]> {
  const path = join(dataDir, fileName);
  try {
    if ((await stat(path)).size > maxFileBytes) return [];
    const parsed: unknown = JSON.parse(await readFile(path, "utf8"));
    const names = (parsed as { names?: unknown } | null)?.names;
    if (!Array.isArray(names)) return [];
    return [...new Set(names.filter((name): name is string => typeof name === "string" && isSkillName(name)))].slice(0, maxNames);
  } catch {
    return [];
  }
}

/** Puts `used` (this session's active skills) in front of what was recorded; written whole, then renamed. */
export async function recordSkillUse(dataDir: string, used: readonly string[]): Promise<void> {
  const fresh = used.filter(isSkillName);
  if (fresh.length === 0) return;
  // The latest activation first: activeSkillNames lists them in activation order.
  const names = [...new Set([...[...fresh].reverse(), ...(await readRecentSkillUse(dataDir))])].slice(0, maxNames);
  await makeDirectoryTree(dataDir, PRIVATE_DIRECTORY_MODE);
  const path = join(dataDir, fileName);
  const temporary = `${path}.${process.pid}.tmp`;
  const text = `${JSON.stringify({ names })}\n`;
  await writeFile(temporary, text, { mode: PRIVATE_FILE_MODE });
  await rename(temporary, path);
  noteHarnessWrite({ path, content: Buffer.from(text, "utf8") });
}
