import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { createHash } from "node:crypto";
import { dirname, join, relative } from "node:path";
import { stripByteOrderMark } from "../types/byte-order-mark.js";

/** The files other agents read for a project's conventions, in the order they are looked for. */
export const projectInstructionFileNames = ["AGENTS.md", "CLAUDE.md"] as const;

/** A file larger than this is cut: instructions are read on every call, and a file is not a person's word. */
const maxInstructionBytes = 32_000;

export interface ProjectInstructions {
  /** Absolute paths of the files read, outermost folder first. */
  files: string[];
  /** The text for the session part of the system prompt; empty when no file was found. */
  text: string;
}

/**
 * Reads AGENTS.md and CLAUDE.md from the workspace and each parent folder up to the repository root
 * (the nearest folder with `.git`; without one, the workspace alone). Outer folders come first, so
 * the instructions nearest the workspace are read last and win where they disagree.
 */
export function loadProjectInstructions(workspace: string): ProjectInstructions {
  const folders = foldersUpToRepositoryRoot(workspace);
  const files: string[] = [];
  const sections: string[] = [];
  for (const folder of folders) {
    for (const name of projectInstructionFileNames) {
      const path = join(folder, name);
      if (!isFile(path)) continue;
      const { head, size } = readHead(path, maxInstructionBytes);
      // A cut can fall inside a multi-byte character; the decoder holds back an incomplete trailing sequence
      // (write without end) instead of turning it into U+FFFD in the prompt.
      const text = stripByteOrderMark(size > maxInstructionBytes ? new StringDecoder("utf8").write(head) : head.toString("utf8"));
      const cut = size > maxInstructionBytes ? `\n[… cut: the file has ${size} bytes, only the first ${maxInstructionBytes} are shown]` : "";
      files.push(path);
      sections.push(`<instructions file="${relative(workspace, path) || name}">\n${text.trimEnd()}${cut}\n</instructions>`);
    }
  }
  if (sections.length === 0) return { files, text: "" };
  return {
    files,
    text: `Project instructions (from the repository's ${projectInstructionFileNames.join(" / ")} files; follow them):\n\n${sections.join("\n\n")}`,
  };
}

function foldersUpToRepositoryRoot(workspace: string): string[] {
  const chain: string[] = [];
  let folder = workspace;
  while (true) {
    chain.push(folder);
    if (existsSync(join(folder, ".git"))) return chain.reverse();
    const parent = dirname(folder);
    if (parent === folder) return [workspace];
    folder = parent;
  }
}

/** The first `limit` bytes and the size: only what is shown is read (a file over 2 GiB cannot even be read whole). */
function readHead(path: string, limit: number): { head: Buffer; size: number } {
  const descriptor = openSync(path, "r");
  try {
    // The size of the file opened, not of whatever the path names by now.
    const size = fstatSync(descriptor).size;
    const head = Buffer.alloc(Math.min(size, limit));
    let filled = 0;
    while (filled < head.length) {
      const read = readSync(descriptor, head, filled, head.length - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    return { head: head.subarray(0, filled), size };
  } finally {
    closeSync(descriptor);
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A short fingerprint of instruction text, written into announcements so a resumed session knows what was last said. */
export function instructionsVersion(text: string): string {
  return text === "" ? "none" : createHash("sha256").update(text).digest("hex").slice(0, 12);
}

const announcementPattern = /\[The project instructions (?:changed|were removed)[^\]]*\(version ([0-9a-f]{12}|none)\)/g;

/** The version named by the last announcement in these messages' text, if any. */
export function lastAnnouncedVersion(texts: readonly string[]): string | undefined {
  let version: string | undefined;
  for (const text of texts) for (const match of text.matchAll(announcementPattern)) version = match[1];
  return version;
}

/**
 * The message that tells the model its project instructions changed mid-session. The system prompt
 * is never rewritten (that would break the prompt cache); the change is appended to the trajectory.
 */
export function describeInstructionsChange(current: ProjectInstructions): string {
  const version = instructionsVersion(current.text);
  return current.text === ""
    ? `[The project instructions were removed since this session started (version ${version}); disregard them from now on.]`
    : `[The project instructions changed since this session started (version ${version}). They now read:]\n\n${current.text}`;
}
