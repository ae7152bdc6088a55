import { mkdir, mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A corpus folder like the shared one whose τ-bench trajectories file holds only its `dialogues`
 * shortest recorded dialogues (the domains and swe-gemini/ are the shared folders, linked): a
 * benchmark's smallest run, for tests that check its output rather than its numbers.
 */
export async function tinyTauCorpus(corpus: string, dialogues = 1): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "ctxkit-tiny-corpus-"));
  const tau = join(root, "tau-bench");
  await mkdir(join(tau, "trajectories"), { recursive: true });
  for (const domain of ["airline", "retail"]) await symlink(join(corpus, "tau-bench", domain), join(tau, domain));
  if (existsSync(join(corpus, "swe-gemini"))) await symlink(join(corpus, "swe-gemini"), join(root, "swe-gemini"));
  const recorded = JSON.parse(await readFile(join(corpus, "tau-bench", "trajectories", "gpt-4o-airline.json"), "utf8")) as unknown[];
  const bySize = recorded.map((dialogue, index) => ({ index, size: JSON.stringify(dialogue).length })).sort((a, b) => a.size - b.size || a.index - b.index);
  // Kept in the file's order, as the benchmarks read it.
  const kept = bySize.slice(0, dialogues).map(({ index }) => index).sort((a, b) => a - b).map((index) => recorded[index]);
  await writeFile(join(tau, "trajectories", "gpt-4o-airline.json"), JSON.stringify(kept));
  return root;
}
