import { basename } from "node:path";

/** The file name without directories and JSON extensions: the id of a transcript that names none. */
export function transcriptIdFromFile(file: string): string {
  return basename(file).replace(/(\.traj)?\.jsonl?$/i, "") || "transcript";
}
