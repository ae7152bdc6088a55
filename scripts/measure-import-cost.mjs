#!/usr/bin/env node
// The start-up cost of the modules the CLI's configuration loads, each in a fresh `node` beside a
// bare `node -e ''`: median and fastest wall time of N runs, interleaved so that machine load hits
// every case alike. Prints a table and writes bench-results/import-cost.json.
// Usage: node scripts/measure-import-cost.mjs [runs=21]   (after `npx tsc -p tsconfig.build.json`)
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";

const runs = Number(process.argv[2] ?? 21);
const cases = {
  "node -e ''": ["-e", ""],
  "import zod": ["--input-type=module", "-e", 'await import("zod")'],
  "import zod/mini": ["--input-type=module", "-e", 'await import("zod/mini")'],
  "settings table (help, flags)": ["--input-type=module", "-e", 'await import("./dist/cli/agent-options-help.js")'],
  "config schema (zod/mini)": ["--input-type=module", "-e", 'await import("./dist/config/config-schema.js")'],
  "resolve-config": ["--input-type=module", "-e", 'await import("./dist/cli/resolve-config.js")'],
};
const times = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let run = 0; run < runs; run += 1) {
  for (const [name, args] of Object.entries(cases)) {
    const start = process.hrtime.bigint();
    execFileSync(process.execPath, args, { stdio: "ignore" });
    times[name].push(Number(process.hrtime.bigint() - start) / 1e6);
  }
}
const rows = Object.entries(times).map(([name, values]) => {
  const sorted = [...values].sort((left, right) => left - right);
  return { name, medianMs: sorted[Math.floor(sorted.length / 2)], minMs: sorted[0] };
});
const bare = rows[0];
console.log(`| module | median ms | fastest ms | median over bare node |`);
console.log(`|---|---:|---:|---:|`);
for (const row of rows) console.log(`| ${row.name} | ${row.medianMs.toFixed(1)} | ${row.minMs.toFixed(1)} | ${(row.medianMs - bare.medianMs).toFixed(1)} |`);
mkdirSync("bench-results", { recursive: true });
writeFileSync("bench-results/import-cost.json", `${JSON.stringify({ node: process.version, cpus: cpus().length, runs, startedAt: new Date().toISOString(), rows }, null, 2)}\n`);
