import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** The session file a CLI run in `cwd` wrote (.ctxkit/sessions/<id>.jsonl). */
export async function sessionFile(cwd: string): Promise<string> {
  const folder = join(cwd, ".ctxkit", "sessions");
  const [file] = (await readdir(folder)).filter((name) => name.endsWith(".jsonl"));
  if (file === undefined) throw new Error(`no session file in ${folder}`);
  return join(folder, file);
}

/** The records of that session file, parsed. */
export async function sessionRecords(cwd: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(await sessionFile(cwd), "utf8");
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Record<string, unknown>);
}
