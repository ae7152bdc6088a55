import { constants } from "node:fs";
import { appendFile, chmod, copyFile, open, readFile, rename, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { SessionError } from "../types/index.js";
import { PRIVATE_FILE_MODE } from "../types/private-file-modes.js";
import { nodeErrorCode } from "../types/node-error-code.js";

export interface SessionRepair {
  /** The file as it was before the repair, byte for byte. */
  backupPath: string;
  /** 1-based line numbers left out of the repaired file (their bytes are appended to `<file>.removed`). */
  removedLines: number[];
  /** Where the removed records' bytes were put, for a person to read back. */
  removedTo: string;
}

export interface SessionRepairOptions {
  /** The kept lines' new order (1-based line numbers); default: as they are. A torn tail stays last. */
  order?: readonly number[];
}

const NEWLINE = 0x0a;

/**
 * Rewrites a session file without the given lines, keeping the original: first a copy of the
 * original beside it (`<file>.before-repair`, numbered when one exists), synced, then the repaired
 * bytes into a temporary file renamed over the session. At every moment the original bytes exist
 * in one of the two paths. Every other line is kept byte for byte (in `options.order` when given),
 * the torn tail included (opening the session deals with that).
 */
export async function repairSessionFile(filePath: string, lines: readonly number[], options: SessionRepairOptions = {}): Promise<SessionRepair> {
  const bytes = await readFile(filePath);
  const removed = new Set(lines);
  // Every line with its newline; the last one may lack it (a torn or unterminated tail), and stays last.
  const byLine: Buffer[] = [];
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline < 0 ? bytes.length : newline + 1;
    byLine.push(bytes.subarray(start, end));
    start = end;
  }
  const tailLine = bytes.at(-1) === NEWLINE ? [] : [byLine.length];
  const order = options.order === undefined ? byLine.map((_, index) => index + 1) : [...options.order, ...tailLine];
  const kept = order.filter((line) => !removed.has(line)).map((line) => byLine[line - 1]!);
  const backupPath = await backUp(filePath);
  // The removed records themselves, in one place a person can read back (the backup holds them too).
  // Each copy holds the transcript, so each is private (0600), whatever mode the session had (issue 24).
  if (removed.size > 0) {
    await appendFile(`${filePath}.removed`, removedRecords(byLine, removed), { mode: PRIVATE_FILE_MODE });
    await chmod(`${filePath}.removed`, PRIVATE_FILE_MODE);
  }
  const temporary = `${filePath}.repair-tmp`;
  const handle = await open(temporary, "w", PRIVATE_FILE_MODE);
  try {
    // A temporary file left by an interrupted repair keeps its old mode; `open`'s mode applies only to a new one.
    await handle.chmod(PRIVATE_FILE_MODE);
    await handle.writeFile(Buffer.concat(kept));
    await handle.sync();
  } finally {
    await handle.close();
  }
  if ((await stat(filePath)).size !== bytes.length) {
    await rm(temporary, { force: true });
    throw new SessionError("session_changed_on_disk", `${filePath} changed on disk during its repair; is another process writing it? It was not modified (a copy is at ${backupPath}).`);
  }
  await rename(temporary, filePath);
  await syncDirectory(dirname(filePath));
  return { backupPath, removedLines: [...removed].sort((left, right) => left - right), removedTo: `${filePath}.removed` };
}

function removedRecords(byLine: readonly Buffer[], removed: ReadonlySet<number>): Buffer {
  const lines = [...removed].sort((left, right) => left - right).flatMap((line) => (byLine[line - 1] === undefined ? [] : [byLine[line - 1]!]));
  return Buffer.concat(lines.map((line) => (line.at(-1) === NEWLINE ? line : Buffer.concat([line, Buffer.from("\n")]))));
}

async function backUp(filePath: string): Promise<string> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const backupPath = `${filePath}.before-repair${attempt === 0 ? "" : `-${attempt}`}`;
    try {
      // COPYFILE_EXCL: an earlier repair's copy is never overwritten.
      await copyFile(filePath, backupPath, constants.COPYFILE_EXCL);
      await chmod(backupPath, PRIVATE_FILE_MODE);
    } catch (error) {
      if (nodeErrorCode(error) === "EEXIST") continue;
      throw error;
    }
    const handle = await open(backupPath, "r");
    await handle.sync().finally(() => handle.close());
    return backupPath;
  }
  throw new SessionError("session_repair_failed", `${filePath} has 1000 copies from earlier repairs beside it; remove some and resume again.`);
}

async function syncDirectory(directory: string): Promise<void> {
  // Makes the rename durable on Linux; some platforms cannot open a directory, and lose nothing but that guarantee.
  const handle = await open(directory, "r").catch(() => undefined);
  await handle?.sync().catch(() => undefined);
  await handle?.close();
}
