import { noteHarnessWrite } from "../security/harness-writes.js";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from "../types/private-file-modes.js";
import { makeDirectoryTreeSync } from "../types/make-directory-tree.js";

/**
 * The chat's prompt history on disk: one entry a line, oldest first. An entry of several lines (a
 * paste, a `\`-continued message) is written as a JSON string, so it comes back as one message; so
 * is one that starts with a quote. Files written before that held plain lines only, and still read.
 */
export function readChatHistory(file: string | undefined, limit: number): string[] {
  if (!file) return [];
  try {
    // readline keeps the newest entry first.
    return readFileSync(file, "utf8").split("\n").filter((line) => line !== "").map(decodeEntry).reverse().slice(0, limit);
  } catch {
    return [];
  }
}

/** Writes the entries (newest first, as readline holds them). */
export function writeChatHistory(file: string | undefined, entries: readonly string[]): void {
  if (!file) return;
  try {
    makeDirectoryTreeSync(dirname(file), PRIVATE_DIRECTORY_MODE);
    const text = `${[...entries].reverse().map(encodeEntry).join("\n")}\n`;
    writeFileSync(file, text, { mode: PRIVATE_FILE_MODE });
    noteHarnessWrite({ path: file, content: Buffer.from(text, "utf8") });
  } catch {
    // History is a convenience: a read-only data directory must not stop the chat.
  }
}

function encodeEntry(entry: string): string {
  return /[\r\n]/.test(entry) || entry.startsWith('"') ? JSON.stringify(entry) : entry;
}

function decodeEntry(line: string): string {
  if (!line.startsWith('"') || !line.endsWith('"') || line.length < 2) return line;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "string" ? value : line;
  } catch {
    return line;
  }
}
