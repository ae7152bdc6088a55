import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { findOpenHandsConversationFolder, importTranscriptFiles, makeIdsUnique, type ImportProblem, type ImportResult, type TranscriptFormat } from "../../inspect/index.js";
import { describeInvalidUtf8 } from "../../inspect/importers/find-invalid-utf8.js";
import { TranscriptError } from "../../types/index.js";
import { toRecordedRun, type RecordedRun } from "./recorded-run.js";

export interface LoadRecordedRunsOptions {
  /**
   * One format for every file, `auto` (detect each file's), or `all`: directories are searched
   * recursively for transcripts of every format, and a file no importer recognises is skipped as a
   * problem instead of stopping the replay (a folder of mixed recordings, data files beside them).
   */
  format?: TranscriptFormat | "auto" | "all";
  /** Replay only the first N runs (in file-name order within a directory). */
  limit?: number;
}

export interface LoadedRuns {
  runs: RecordedRun[];
  /** Files or records that could not be imported, and runs cut short (see `RecordedRun.truncated`). */
  problems: ImportProblem[];
}

/**
 * Imports transcripts for replay. A directory stands for its `*.traj.json` files (a mini-swe-agent
 * output directory), or, when it has none, its `*.json` and `*.jsonl` files; in name order.
 */
export async function loadRecordedRuns(paths: readonly string[], options: LoadRecordedRunsOptions = {}): Promise<LoadedRuns> {
  const files: string[] = [];
  const all = options.format === "all";
  for (const path of paths) files.push(...(all ? await findTranscriptFiles(path) : await expandPath(path)));
  const selected = options.limit === undefined || all ? files : files.slice(0, options.limit);
  const imported = options.format === "all" ? await importEach(selected) : await importTranscriptFiles(selected, { format: options.format ?? "auto" });
  const problems = [...imported.problems];
  const runs: RecordedRun[] = [];
  const invalidUtf8Files = new Set<string>();
  for (const transcript of imported.transcripts) {
    // The importer's note on a file that is not valid UTF-8, said once per file: replay reports problems, not notes.
    if (transcript.invalidUtf8 !== undefined && !invalidUtf8Files.has(transcript.file)) {
      invalidUtf8Files.add(transcript.file);
      problems.push({ file: transcript.file, line: transcript.invalidUtf8.line, reason: describeInvalidUtf8(transcript.invalidUtf8) });
    }
    const run = toRecordedRun(transcript);
    if (run.calls.length === 0) {
      problems.push({ file: transcript.file, reason: `run ${transcript.id} has no recorded model answers to replay` });
      continue;
    }
    if (run.truncated !== undefined) problems.push({ file: transcript.file, reason: `run ${run.id}: replayed up to where ${run.truncated}` });
    runs.push(run);
  }
  return { runs: options.limit === undefined ? runs : all ? firstOfEachFormat(runs, options.limit) : runs.slice(0, options.limit), problems };
}

/** With `--format all`, `--limit N` keeps the first N runs of each format, so every format stays in the table. */
function firstOfEachFormat(runs: readonly RecordedRun[], limit: number): RecordedRun[] {
  const counts = new Map<string, number>();
  return runs.filter((run) => {
    const count = (counts.get(run.format) ?? 0) + 1;
    counts.set(run.format, count);
    return count <= limit;
  });
}

/** Each file on its own: one that no importer recognises becomes a problem, and the rest still load. */
async function importEach(files: readonly string[]): Promise<ImportResult> {
  const result: ImportResult = { transcripts: [], problems: [] };
  for (const file of files) {
    try {
      const imported = await importTranscriptFiles([file], { format: "auto" });
      result.transcripts.push(...imported.transcripts);
      result.problems.push(...imported.problems);
    } catch (error) {
      if (!(error instanceof TranscriptError)) throw error;
      result.problems.push({ file, reason: "skipped: not a transcript of any known format" });
    }
  }
  makeIdsUnique(result.transcripts);
  return result;
}

// Bounds for a recursive search of a folder the user named: deep enough for an agent's session
// tree (Claude Code's projects/<dir>/<session>.jsonl, Codex's sessions/YYYY/MM/DD/), not a disk walk.
const maxDepth = 5;
const maxFiles = 10_000;
const transcriptFile = /\.(?:jsonl?|traj|history)$/;

/** Every file under `path` that may be a transcript (by extension), in name order, depth first. */
async function findTranscriptFiles(path: string, depth = 0, found: string[] = []): Promise<string[]> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch (error) {
    throw new TranscriptError(`Cannot read ${path} (${(error as Error).message}). Pass transcript files or a directory of them.`);
  }
  // An OpenHands V1 conversation folder (base_state.json, events/) is one run, not a folder to search.
  if (!isDirectory || (await findOpenHandsConversationFolder(path)) !== undefined) {
    found.push(path);
    return found;
  }
  if (depth >= maxDepth) return found;
  for (const name of (await readdir(path)).sort()) {
    if (found.length >= maxFiles) break;
    const child = join(path, name);
    const info = await stat(child).catch(() => undefined);
    if (info?.isDirectory()) await findTranscriptFiles(child, depth + 1, found);
    else if (info?.isFile() && transcriptFile.test(name)) found.push(child);
  }
  return found;
}

async function expandPath(path: string): Promise<string[]> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch (error) {
    throw new TranscriptError(`Cannot read ${path} (${(error as Error).message}). Pass transcript files or a directory of them.`);
  }
  if (!isDirectory || (await findOpenHandsConversationFolder(path)) !== undefined) return [path];
  const names = (await readdir(path)).sort();
  const trajectories = names.filter((name) => name.endsWith(".traj.json"));
  const chosen = trajectories.length > 0 ? trajectories : names.filter((name) => name.endsWith(".json") || name.endsWith(".jsonl"));
  if (chosen.length === 0) throw new TranscriptError(`${path} holds no *.traj.json, *.json or *.jsonl files to replay.`);
  return chosen.map((name) => join(path, name));
}
