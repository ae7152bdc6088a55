import { open } from "node:fs/promises";
import { readLineWindow, type LineWindow, type LineWindowOptions } from "../read-line-window.js";

/** readLineWindow on a file by path, with read_file's limits: from line 1, `limit` lines (default 5). */
export async function readWindowOf(file: string, options: Partial<LineWindowOptions>): Promise<LineWindow> {
  const handle = await open(file);
  try {
    return await readLineWindow(handle, { offset: 1, limit: 5, maxLineCharacters: 2000, maxOutputBytes: 50 * 1024, ...options });
  } finally {
    await handle.close();
  }
}
