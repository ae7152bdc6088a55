import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { CliIo } from "./cli-io.js";

/** The exit codes every benchmark documents in its --help. */
export const benchExitCodesHelp = `Exit codes: 0 done (also when the corpus is absent and the benchmark is skipped); 1 it failed;
2 a usage error; 130 interrupted with Ctrl-C.
`;

/** The end of every benchmark's --help that writes a JSON file: where it goes without --out, and the exit codes. */
export const benchResultsHelp = `Without --out the JSON goes to bench-results/ when run inside the ctxkit project, and to
ctxkit-bench-results/ in the system's temporary folder anywhere else (the path follows the tables).
${benchExitCodesHelp}`;

/**
 * Where a benchmark writes its JSON: `--out` when given; else `bench-results/…` when run inside the
 * ctxkit project (its results folder, kept out of git); anywhere else a folder under the system's
 * temporary directory, so running a benchmark never litters a user's own project.
 */
export function benchOutputPath(io: Pick<CliIo, "cwd" | "env">, out: string | undefined, defaultRelative: string): string {
  if (out !== undefined) return resolve(io.cwd, out);
  const project = findCtxkitProject(io.cwd);
  return project ? resolve(project, defaultRelative) : join(temporaryDirectory(io.env), "ctxkit-bench-results", defaultRelative.replace(/^bench-results[\\/]/, ""));
}

/** os.tmpdir() as the command's environment says (the command may not run with the process's own). */
function temporaryDirectory(env: NodeJS.ProcessEnv): string {
  if (process.platform === "win32") return tmpdir();
  const named = env.TMPDIR || env.TMP || env.TEMP;
  return named ? named.replace(/(.)\/+$/, "$1") : "/tmp";
}

function findCtxkitProject(start: string): string | undefined {
  let folder = resolve(start);
  while (true) {
    const manifest = join(folder, "package.json");
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === "ctxkit") return folder;
      } catch {
        // An unreadable manifest is not ctxkit's.
      }
    }
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}
