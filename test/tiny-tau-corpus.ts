import { mkdir, mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A corpus folder like the shared one, whose τ-bench trajectories file holds only its shortest
 * recorded dialogue (the domains are the shared folders, linked): a benchmark's smallest run, for
 * tests that check its output rather than its numbers.
 */
export async function tinyTauCorpus(corpus: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "ctxkit-tiny-corpus-"));
  const tau = join(root, "tau-bench");
  await mkdir(join(tau, "trajectories"), { recursive: true });
  for (const domain of ["airline", "retail"]) await symlink(join(corpus, "tau-bench", domain), join(tau, domain));
  const dialogues = JSON.parse(await readFile(join(corpus, "tau-bench", "trajectories", "gpt-4o-airline.json"), "utf8")) as unknown[];
  const shortest = dialogues.reduce((best, dialogue) => (JSON.stringify(dialogue).length < JSON.stringify(best).length ? dialogue : best));
  await writeFile(join(tau, "trajectories", "gpt-4o-airline.json"), JSON.stringify([shortest]));
  return root;
}
