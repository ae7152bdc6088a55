import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { defaultCountBudget, readLineWindow, type CountBudget, type LineWindow } from "../../tools/builtin/read-line-window.js";
import { formatTextTable } from "../text-table.js";
import { readLineWindowBefore } from "./read-line-window-before.js";

const usage = `Usage: node dist/bench/read-file/run.js [--size <MB>] [--runs <n>] [--budget <MB>] [--json <out.json>]

How long read_file's page of a big file takes (a window of up to 2,000 lines, from line 1, from
the middle and from the last 2,000 lines, and the file's line count), before and after the count
and the lines before the offset were bounded, on generated files of --size MB (default 500) in a
temp folder: one of 80-byte lines and one single line. Each file is read once first, so both
versions read from the page cache; the runs alternate between them. --budget sets the byte budget
of the bounded version (default 1024: 1 GB), to see a far offset it does not reach without
writing gigabytes.
`;

interface Shape {
  name: string;
  /** One megabyte of the file's content. */
  megabyte: Buffer;
  /** The first line of each read measured (1, and the middle of a file of many lines). */
  offsets: (megabytes: number) => number[];
}

interface Row {
  file: string;
  runs: number;
  beforeMedianMs: number;
  afterMedianMs: number;
  beforeLines: number;
  afterLines: number;
  afterCountComplete: boolean;
  /** Lines the bounded version showed, or "not reached" when the offset was past its budget. */
  afterShown: string;
}

const shapes: Shape[] = [
  {
    name: "80-byte lines",
    megabyte: Buffer.from(`${"x".repeat(79)}\n`.repeat(13_107)),
    offsets: (megabytes) => [1, Math.floor((13_107 * megabytes) / 2), 13_107 * megabytes - 1999],
  },
  { name: "one line", megabyte: Buffer.alloc(1024 * 1024, "y"), offsets: () => [1] },
];

const windowOptions = { limit: 2000, maxLineCharacters: 2000, maxOutputBytes: 50 * 1024 };

async function writeFileOf(path: string, megabyte: Buffer, megabytes: number): Promise<void> {
  const handle = await open(path, "w");
  try {
    for (let written = 0; written < megabytes; written += 1) await handle.write(megabyte);
  } finally {
    await handle.close();
  }
}

async function timed<T>(path: string, read: (handle: Awaited<ReturnType<typeof open>>) => Promise<T>): Promise<{ ms: number; result: T }> {
  const handle = await open(path);
  try {
    const start = performance.now();
    const result = await read(handle);
    return { ms: performance.now() - start, result };
  } finally {
    await handle.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function measure(path: string, name: string, offset: number, runs: number, countBudget: CountBudget): Promise<Row> {
  const options = { ...windowOptions, offset };
  const before: number[] = [];
  const after: number[] = [];
  let beforeLines = 0;
  let afterWindow: LineWindow | undefined;
  // The first read fills the page cache; it is not counted.
  await timed(path, (handle) => readLineWindowBefore(handle, options));
  for (let run = 0; run < runs; run += 1) {
    const old = await timed(path, (handle) => readLineWindowBefore(handle, options));
    before.push(old.ms);
    beforeLines = old.result.totalLines;
    const now = await timed(path, (handle) => readLineWindow(handle, { ...options, countBudget }));
    after.push(now.ms);
    afterWindow = now.result;
  }
  return {
    file: name,
    runs,
    beforeMedianMs: median(before),
    afterMedianMs: median(after),
    beforeLines,
    afterLines: afterWindow?.totalLines ?? 0,
    afterCountComplete: afterWindow?.countComplete ?? false,
    afterShown: afterWindow?.offsetUnreached ? "not reached" : String(afterWindow?.lines.length ?? 0),
  };
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { size: { type: "string" }, runs: { type: "string" }, budget: { type: "string" }, json: { type: "string" }, help: { type: "boolean", short: "h" } } });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const megabytes = Number(values.size ?? 500);
  const runs = Number(values.runs ?? 3);
  const countBudget = values.budget === undefined ? defaultCountBudget : { ...defaultCountBudget, maxBytes: Number(values.budget) * 1024 * 1024 };
  const folder = await mkdtemp(join(tmpdir(), "ctxkit-bench-read-file-"));
  const rows: Row[] = [];
  try {
    for (const shape of shapes) {
      const path = join(folder, "big.txt");
      await writeFileOf(path, shape.megabyte, megabytes);
      for (const offset of shape.offsets(megabytes)) rows.push(await measure(path, `${megabytes} MB, ${shape.name}, from line ${offset}`, offset, runs, countBudget));
      await rm(path);
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  const header = ["file", "runs", "before ms", "after ms", "before/after", "lines before", "lines after", "shown after"];
  const table = rows.map((row) => [
    row.file,
    String(row.runs),
    row.beforeMedianMs.toFixed(0),
    row.afterMedianMs.toFixed(0),
    `${(row.beforeMedianMs / row.afterMedianMs).toFixed(1)}×`,
    String(row.beforeLines),
    `${row.afterCountComplete ? "" : "at least "}${row.afterLines}`,
    row.afterShown,
  ]);
  console.log(formatTextTable(header, table));
  if (values.json !== undefined) await writeFile(values.json, `${JSON.stringify({ benchmark: "read-file", megabytes, budgetBytes: countBudget.maxBytes, rows }, null, 2)}\n`);
  return 0;
}

process.exitCode = await main();
