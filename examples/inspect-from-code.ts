// Inspect from code: what `ctxkit inspect` prints, as data — per-call prompt tokens, the prefix a
// cache could reuse, and the anti-patterns found. Pass transcript files (a ctxkit session, an OpenAI
// request log, a Claude Code or Codex session, a mini-swe-agent trajectory) as arguments.
import { fileURLToPath } from "node:url";
import { inspectFiles } from "ctxkit/inspect";

const files = process.argv.slice(2);
if (files.length === 0) files.push(fileURLToPath(new URL("../../src/inspect/importers/fixtures/openai-log.jsonl", import.meta.url)));

const report = await inspectFiles(files, { tokenizer: "estimate" });
for (const transcript of report.transcripts) {
  console.log(`${transcript.id} (${transcript.format}): ${transcript.totals.calls} calls, ${(transcript.totals.reusableShare * 100).toFixed(1)}% of prompt tokens reusable`);
  for (const finding of transcript.findings) console.log(`  ${finding.severity}: ${finding.message}`);
}
for (const problem of report.problems) console.error(`${problem.file}: ${problem.reason}`);
