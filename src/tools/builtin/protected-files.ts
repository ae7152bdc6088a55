import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { lstat, open, readdir, readFile, readlink, rm, symlink, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { Tool, ToolOutput } from "../../types/index.js";
import { watchHarnessWrites, type HarnessWrite } from "../../security/harness-writes.js";
import { makeDirectoryTree } from "../../types/make-directory-tree.js";

export interface ProtectedFilesOptions {
  /** Single files (ctxkit's config files); one that does not exist must not appear either. */
  files: readonly string[];
  /** Folders guarded whole (the data directory), each with sub-folders ctxkit itself writes during a call. */
  folders: ReadonlyArray<{ path: string; skip?: readonly string[] }>;
  /** Paths in reports are shown relative to this folder (the workspace). */
  shownFrom: string;
  /** Told, for the user, which protected files a call changed and that they were put back. */
  onRestored?: (report: RestoredReport) => void;
  /** Most files read per folder (default 5,000); the rest are not guarded and the report says so. */
  maxFiles?: number;
  /** Files larger than this (default 8 MB) are hashed but their bytes not kept: a change is reported, not undone. */
  maxKeptBytes?: number;
}

export interface RestoredReport {
  tool: string;
  restored: string[];
  notRestored: string[];
}

type Entry = { kind: "file"; hash: string; bytes?: Buffer; mode: number } | { kind: "link"; target: string } | { kind: "unknown" };
type Snapshot = Map<string, Entry>;

/**
 * Guards ctxkit's own files by identity, not by the spelling of a command: the config files and the
 * data directory are hashed before and after every call of `tool` (bash), and a change is undone —
 * the prior bytes put back, a new file removed — then reported to the user and told to the model.
 * `printf … > ctxkit.config.j''son` can no longer turn bash on for the next run (issue 24).
 *
 * What ctxkit itself writes there while the call runs (the loop's session records while an aborted
 * command is still stopping, a sibling sub-agent's session, notes) is told to the guard through
 * `noteHarnessWrite`: the guard then expects those bytes, so it keeps them, and still undoes what the
 * command wrote, before or after them, to the same file — a command cannot forge session records.
 */
export function protectFilesAround<Args>(tool: Tool<Args>, options: ProtectedFilesOptions): Tool<Args> {
  return {
    ...tool,
    async execute(args, context) {
      const expected = await expectOwnWrites(options);
      const undo = async () => {
        try {
          const report: RestoredReport = { tool: tool.name, restored: [], notRestored: [] };
          // What ctxkit writes while the files are compared is expected too: compared again with it.
          for (let pass = 0; pass < 3; pass += 1) {
            const { restored, notRestored } = await restoreChanges(expected.current(), await takeSnapshot(options), tool.name, options.shownFrom);
            report.restored = [...new Set([...report.restored, ...restored])];
            report.notRestored = [...new Set([...report.notRestored, ...notRestored])];
            if (!expected.pending()) break;
          }
          return report;
        } finally {
          expected.stop();
        }
      };
      let output: ToolOutput | string;
      try {
        output = await tool.execute(args, context);
      } catch (error) {
        // Also after a failure or a timeout: what the command did before it stopped is undone too.
        const report = await undo();
        if (report.restored.length > 0 || report.notRestored.length > 0) options.onRestored?.(report);
        throw error;
      }
      const report = await undo();
      if (report.restored.length === 0 && report.notRestored.length === 0) return output;
      options.onRestored?.(report);
      const note = noteFor(report);
      return typeof output === "string" ? `${output}\n${note}` : { ...output, content: `${output.content}\n${note}` };
    },
  };
}

function noteFor(report: RestoredReport): string {
  const parts = [];
  if (report.restored.length > 0) parts.push(`ctxkit undid this command's changes to its own files (${report.restored.join(", ")}); they are back as they were.`);
  if (report.notRestored.length > 0) parts.push(`It changed ${report.notRestored.join(", ")}, which could not be put back; the user was told.`);
  return `${parts.join(" ")} ctxkit's config and data files are not changed by commands: ask the user to edit them.`;
}

interface ExpectedFiles {
  /** The snapshot taken before the call with ctxkit's own writes since applied: what the files must hold. */
  current(): Snapshot;
  /** ctxkit wrote since the last `current()`. */
  pending(): boolean;
  stop(): void;
}

async function expectOwnWrites(options: ProtectedFilesOptions): Promise<ExpectedFiles> {
  const maxKept = options.maxKeptBytes ?? 8 * 1024 * 1024;
  const noted: HarnessWrite[] = [];
  const guards = guardedBy(options);
  const stop = watchHarnessWrites((write) => {
    if (guards(write.path)) noted.push(write);
  });
  try {
    const snapshot = await takeSnapshot(options);
    // Written while the snapshot was read, before the command starts: the disk holds only ctxkit's
    // bytes, read again (an append applied to a snapshot that already read it would count twice).
    while (noted.length > 0) {
      for (const path of new Set(noted.splice(0).map((write) => resolve(write.path)))) {
        snapshot.delete(path);
        await record(path, snapshot, maxKept);
      }
    }
    return {
      current: () => {
        // Applied when asked, all at once: a session's many small appends cost one copy, not one each.
        expectWrites(snapshot, noted.splice(0), maxKept);
        return snapshot;
      },
      pending: () => noted.length > 0,
      stop,
    };
  } catch (error) {
    stop();
    throw error;
  }
}

function guardedBy(options: ProtectedFilesOptions): (path: string) => boolean {
  const files = new Set(options.files.map((file) => resolve(file)));
  const folders = options.folders.map((folder) => ({
    path: resolve(folder.path),
    skip: (folder.skip ?? []).map((name) => resolve(folder.path, name)),
  }));
  const inside = (path: string, folder: string) => path.startsWith(folder + sep);
  return (written) => {
    const path = resolve(written);
    return files.has(path) || folders.some((folder) => inside(path, folder.path) && !folder.skip.some((skipped) => path === skipped || inside(path, skipped)));
  };
}

function expectWrites(snapshot: Snapshot, writes: readonly HarnessWrite[], maxKept: number): void {
  const appended = new Map<string, Uint8Array[]>();
  const settle = (path: string) => {
    const chunks = appended.get(path);
    appended.delete(path);
    if (chunks !== undefined) expectWrite(snapshot, { path, appended: Buffer.concat(chunks) }, maxKept);
  };
  for (const write of writes) {
    const path = resolve(write.path);
    if ("appended" in write) appended.set(path, [...(appended.get(path) ?? []), write.appended]);
    else {
      settle(path);
      expectWrite(snapshot, { ...write, path }, maxKept);
    }
  }
  for (const path of [...appended.keys()]) settle(path);
}

function expectWrite(snapshot: Snapshot, write: HarnessWrite, maxKept: number): void {
  const { path } = write;
  if ("removed" in write) {
    snapshot.delete(path);
    return;
  }
  const prior = snapshot.get(path);
  let bytes: Buffer | undefined;
  if ("content" in write) bytes = Buffer.from(write.content);
  else if (prior === undefined) bytes = Buffer.from(write.appended);
  else if (prior.kind === "file" && prior.bytes !== undefined) bytes = Buffer.concat([prior.bytes, write.appended]);
  if (bytes === undefined) {
    // Appended to a file too large to keep (or written through a link): nothing to compare the end
    // with, so the file is neither put back nor reported; a command's change to it goes unseen too.
    snapshot.set(path, { kind: "unknown" });
    return;
  }
  const mode = prior?.kind === "file" ? prior.mode : 0o600;
  snapshot.set(path, { kind: "file", hash: createHash("sha256").update(bytes).digest("hex"), mode, ...(bytes.length <= maxKept ? { bytes } : {}) });
}

async function takeSnapshot(options: ProtectedFilesOptions): Promise<Snapshot> {
  const snapshot: Snapshot = new Map();
  const maxKept = options.maxKeptBytes ?? 8 * 1024 * 1024;
  for (const file of options.files) await record(resolve(file), snapshot, maxKept);
  for (const folder of options.folders) {
    const skipped = new Set((folder.skip ?? []).map((name) => resolve(folder.path, name)));
    let budget = options.maxFiles ?? 5_000;
    const queue = [resolve(folder.path)];
    while (queue.length > 0 && budget > 0) {
      const directory = queue.shift()!;
      const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const path = join(directory, entry.name);
        if (skipped.has(path)) continue;
        if (entry.isDirectory()) queue.push(path);
        else if ((budget -= 1) >= 0) await record(path, snapshot, maxKept);
      }
    }
  }
  return snapshot;
}

async function record(path: string, snapshot: Snapshot, maxKept: number): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined) return;
  if (info.isSymbolicLink()) {
    snapshot.set(path, { kind: "link", target: await readlink(path) });
    return;
  }
  if (!info.isFile()) return;
  const bytes = await readFile(path).catch(() => undefined);
  if (bytes === undefined) return;
  snapshot.set(path, { kind: "file", hash: createHash("sha256").update(bytes).digest("hex"), mode: info.mode & 0o777, ...(bytes.length <= maxKept ? { bytes } : {}) });
}

function same(left: Entry | undefined, right: Entry | undefined): boolean {
  // ctxkit appended to a file whose bytes were not kept: there is nothing to compare the end with.
  if (left?.kind === "unknown" || right?.kind === "unknown") return true;
  if (left === undefined || right === undefined) return left === right;
  if (left.kind === "link" || right.kind === "link") return left.kind === right.kind && (left as { target: string }).target === (right as { target: string }).target;
  return left.hash === right.hash;
}

async function restoreChanges(before: Snapshot, after: Snapshot, tool: string, shownFrom: string): Promise<RestoredReport> {
  const shown = (path: string) => {
    const inside = relative(shownFrom, path);
    return inside.startsWith("..") ? path : inside;
  };
  const report: RestoredReport = { tool, restored: [], notRestored: [] };
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const prior = before.get(path);
    if (same(prior, after.get(path))) continue;
    try {
      if (prior?.kind === "file" && prior.bytes !== undefined && (await rewriteInPlace(path, prior.bytes, prior.mode))) {
        report.restored.push(shown(path));
        continue;
      }
      await rm(path, { force: true });
      if (prior?.kind === "link") await symlink(prior.target, path);
      else if (prior?.kind === "file") {
        if (prior.bytes === undefined) throw new Error("too large to keep");
        // A folder put back holds ctxkit's config or data: private, like the data directory (issue 24).
        await makeDirectoryTree(dirname(path), 0o700);
        await writeFile(path, prior.bytes, { mode: prior.mode });
      }
      report.restored.push(shown(path));
    } catch {
      report.notRestored.push(shown(path));
    }
  }
  return report;
}

/**
 * Puts the bytes back into the same file, not a new one: ctxkit may hold it open (a session writer
 * appends through its handle), and a file removed and written anew would leave that handle writing to
 * a deleted file, every later record lost. Never through a link a command put there (O_NOFOLLOW), nor
 * blocked on a pipe put there (O_NONBLOCK); false when there is no regular file to rewrite, and the
 * caller replaces the path instead.
 */
async function rewriteInPlace(path: string, bytes: Buffer, mode: number): Promise<boolean> {
  const handle = await open(path, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
  if (handle === undefined) return false;
  try {
    if (!(await handle.stat()).isFile()) return false;
    await handle.truncate(0);
    await handle.writeFile(bytes);
    await handle.chmod(mode);
    return true;
  } finally {
    await handle.close();
  }
}
