import { writeFile } from "node:fs/promises";
import { benchOutputPath, benchResultsHelp } from "../../bench-output-path.js";
import { dirname, join, relative, resolve } from "node:path";
import { formatTokensReport, loadTextCategories, runHeldOutTokensBench } from "../../../bench/token-estimator/index.js";
import { parseCommandLine, pickCommonOptions } from "../../cli-options.js";
import { positiveIntegerFlag } from "../../number-flags.js";
import type { CliIo } from "../../cli-io.js";
import { createStagedProgressBar } from "../../progress-bar.js";
import { makeDirectoryTree } from "../../../types/make-directory-tree.js";

export const tokensBenchHelp = `Usage: ctxkit bench tokens [--corpus <dir>] [--seeds <dir>] [--limit <runs>] [--fit] [--json] [--out <file>]

How far the token estimator (used for models whose tokenizer ctxkit does not ship) is
from the exact Qwen3 and o200k tokenizers, per kind of text: τ-bench dialogue messages and tool-call
arguments, τ-bench policies, tool schemas, swe-gemini messages and Chinese text. Per category:
characters, exact tokens, and the aggregate relative error (Σestimate − Σexact) / Σexact of chars/4,
the estimator's balanced profile and its profile fitted to each tokenizer. Then the throughput
(MB/s) of the estimator and of the exact counters on the same text.

Every category is split in two by its groups (dialogue task, run, tool, document section, taken in
turn): the coefficients are fitted on one half and the error that counts is the other half's.
--fit re-runs the fit on the fit half (non-negative least squares, each category weighing the same)
and prints the coefficients to paste into src/tokens/estimated-token-counter.ts.

Options:
  --corpus <dir>   folder holding tau-bench/ and swe-gemini/ (default ../shared/corpus); absent: skipped, exit 0
  --seeds <dir>    folder holding the Chinese chapters 000_*.txt (default <corpus>/../seeds); absent: that row is skipped
  --limit <n>      swe-gemini runs to read, evenly spaced in name order (default all)
  --fit            fit the coefficients on the fit half first, measure with them and print them
  --json           print the result as JSON instead of tables
  --out <file>     where the JSON is always written (default bench-results/tokens.json)

${benchResultsHelp}`;

/** The flags this benchmark takes (numbers checked by parseCommandLine); its --help lists the same. */
export const tokensBenchOptions = { ...pickCommonOptions("json"),
  corpus: { type: "string" },
  seeds: { type: "string" },
  limit: positiveIntegerFlag,
  out: { type: "string" },
  fit: { type: "boolean" },
} as const;

/** `ctxkit bench tokens`: the estimator's error against the exact tokenizers on the corpus. */
export async function tokensBenchCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, tokensBenchOptions);
  if (flags.help) {
    io.stdout.write(tokensBenchHelp);
    return 0;
  }
  const limit = extra.limit as number | undefined;
  const corpus = resolve(io.cwd, (extra.corpus as string | undefined) ?? "../shared/corpus");
  const seeds = resolve(io.cwd, (extra.seeds as string | undefined) ?? join(corpus, "..", "seeds"));
  const started = performance.now();
  const loaded = await loadTextCategories({ corpus, seeds, ...(limit === undefined ? {} : { limit }) });
  if (!loaded.found) {
    io.stderr.write(
      `ctxkit bench tokens: skipped — no corpus under ${corpus} (neither tau-bench/ nor swe-gemini/ is there). ` +
        "Pass --corpus <dir>, the folder that holds them.\n",
    );
    return 0;
  }
  const progress = createStagedProgressBar({ stream: io.stderr, enabled: flags.json !== true });
  const result = runHeldOutTokensBench(loaded.categories, loaded.skipped, { refit: extra.fit === true, onProgress: (done, total) => progress.update(done, total, "tokens: exact counts") });
  progress.stop();
  const elapsedMs = Math.round(performance.now() - started);
  const json = { ...result, corpus, seeds, elapsedMs };
  const out = benchOutputPath(io, extra.out as string | undefined, "bench-results/tokens.json");
  await makeDirectoryTree(dirname(out));
  await writeFile(out, `${JSON.stringify(json, null, 2)}\n`);
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    io.stdout.write(
      `Held-out half (the coefficients were not fitted on these texts):\n\n${formatTokensReport(result.heldOut)}\n` +
        `Fit half (the texts the coefficients were fitted on; exact counts memoised, so no throughput here):\n\n${formatTokensReport(result.fit).split("\nThroughput")[0]}\n` +
        (result.fitted ? `\nFitted coefficients (paste into ESTIMATOR_COEFFICIENTS):\n${JSON.stringify(result.fitted, null, 2)}\n` : "") +
        `\nTook ${(elapsedMs / 1000).toFixed(1)} s. Wrote ${relative(io.cwd, out) || out}.\n`,
    );
  }
  return 0;
}
