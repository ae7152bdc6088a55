import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { importTranscriptFiles, type ImportProblem, type TranscriptFormat } from "../../inspect/index.js";
import { TranscriptError } from "../../types/index.js";
import { toRecordedRun, type RecordedRun } from "./recorded-run.js";

export interface LoadRecordedRunsOptions {
  format?: TranscriptFormat | "auto";
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
  for (const path of paths) files.push(...(await expandPath(path)));
  const selected = options.limit === undefined ? files : files.slice(0, options.limit);
  const imported = await importTranscriptFiles(selected, { format: options.format ?? "auto" });
  const problems = [...imported.problems];
  const runs: RecordedRun[] = [];
  for (const transcript of imported.transcripts) {
    const run = toRecordedRun(transcript);
    if (run.calls.length === 0) {
      problems.push({ file: transcript.file, reason: `run ${transcript.id} has no recorded model answers to replay` });
      continue;
    }
    if (run.truncated !== undefined) problems.push({ file: transcript.file, reason: `run ${run.id}: replayed up to where ${run.truncated}` });
    runs.push(run);
  }
  return { runs: options.limit === undefined ? runs : runs.slice(0, options.limit), problems };
}

async function expandPath(path: string): Promise<string[]> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch (error) {
    throw new TranscriptError(`Cannot read ${path} (${(error as Error).message}). Pass transcript files or a directory of them.`);
  }
  if (!isDirectory) return [path];
  const names = (await readdir(path)).sort();
  const trajectories = names.filter((name) => name.endsWith(".traj.json"));
  const chosen = trajectories.length > 0 ? trajectories : names.filter((name) => name.endsWith(".json") || name.endsWith(".jsonl"));
  if (chosen.length === 0) throw new TranscriptError(`${path} holds no *.traj.json, *.json or *.jsonl files to replay.`);
  return chosen.map((name) => join(path, name));
}
