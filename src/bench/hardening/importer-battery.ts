import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { detectTranscriptFormat } from "../../inspect/importers/detect-transcript-format.js";
import { importTranscript } from "../../inspect/importers/import-transcript.js";
import { BatteryTally, runTrial, type BatteryResult } from "./hardening-trial.js";
import type { SeededRandom } from "./seeded-random.js";

// Real recorded transcripts of other agents (origins in fixtures/README.md) and ctxkit's own sessions,
// read from the package's src/ (present in a checkout of ctxkit; dist/bench/hardening/ → src/).
const folders = ["../../../src/inspect/importers/fixtures/", "../../../src/session/fixtures/"].map((folder) => fileURLToPath(new URL(folder, import.meta.url)));

const mutations = ["truncate", "delete a range", "duplicate a line", "change a character", "a 200k-character value", "5,000-deep nesting", "swap value types"] as const;

/**
 * Importers on mutated transcripts: each run mutates a recorded file and imports it. It must import
 * or refuse with a typed error, in bounded time; anything else (a TypeError from a missing field, a
 * stack overflow, a stall) is a crash or a freeze.
 */
export async function runImporterBattery(trials: number, random: SeededRandom): Promise<BatteryResult> {
  const tally = new BatteryTally("importers");
  const files = await recordedTranscripts();
  if (files.length === 0) {
    tally.outcome("skipped: the recorded transcripts are read from ctxkit's own src/ (a checkout of ctxkit)");
    return tally.finish();
  }
  for (let trial = 0; trial < trials; trial += 1) {
    const file = files[trial % files.length]!;
    const mutation = mutations[Math.floor(trial / files.length) % mutations.length]!;
    const text = mutate(file.text, mutation, random);
    const outcome = await runTrial(async () => {
      const format = detectTranscriptFormat(file.name, text);
      const result = importTranscript(text, file.name, format);
      return `${format}: ${result.transcripts.length} transcript(s)`;
    }, 20_000);
    tally.trial(outcome, `${mutation} of ${file.name}`);
    if (outcome.value !== undefined) tally.outcome("imported");
    else if (outcome.error !== undefined) tally.outcome("refused with a typed error");
  }
  return tally.finish();
}

async function recordedTranscripts(): Promise<Array<{ name: string; text: string }>> {
  const files: Array<{ name: string; text: string }> = [];
  for (const folder of folders) {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    // Files only: a folder there is a recorded run kept as a folder (an OpenHands V1 conversation).
    const names = entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
    for (const name of names.sort()) {
      if (name.endsWith(".md") || name === "tau-bench-tools.json") continue;
      files.push({ name, text: await readFile(`${folder}${name}`, "utf8") });
    }
  }
  return files;
}

function mutate(text: string, mutation: (typeof mutations)[number], random: SeededRandom): string {
  const at = random.below(text.length);
  switch (mutation) {
    case "truncate":
      return text.slice(0, at);
    case "delete a range":
      return text.slice(0, at) + text.slice(at + 1 + random.below(200));
    case "duplicate a line": {
      const lines = text.split("\n");
      const line = random.below(lines.length);
      lines.splice(line, 0, lines[line]!);
      return lines.join("\n");
    }
    case "change a character":
      return `${text.slice(0, at)}${random.pick(['"', "{", "]", ",", "0", "\\", "\n", "é"])}${text.slice(at + 1)}`;
    case "a 200k-character value":
      return replaceNthValue(text, random, JSON.stringify("A".repeat(200_000)));
    case "5,000-deep nesting":
      return replaceNthValue(text, random, `${"[".repeat(5_000)}${"]".repeat(5_000)}`);
    case "swap value types":
      return replaceNthValue(text, random, random.pick(["null", "42", "true", "{}", "[]", '"text"', "-1e308"]));
  }
}

/** Replaces one JSON string value (`"key": "…"`) with other JSON, keeping the file otherwise valid. */
function replaceNthValue(text: string, random: SeededRandom, replacement: string): string {
  const values = [...text.matchAll(/("[\w$-]{1,40}"\s*:\s*)"(?:[^"\\\n]|\\.){0,2000}"/g)];
  if (values.length === 0) return text + replacement;
  const chosen = values[random.below(values.length)]!;
  const start = chosen.index + chosen[1]!.length;
  return text.slice(0, start) + replacement + text.slice(chosen.index + chosen[0].length);
}
