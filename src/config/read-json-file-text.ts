import { readFileSync } from "node:fs";
import { stripByteOrderMark } from "../types/byte-order-mark.js";

/** A JSON file's text without a leading byte-order mark (see stripByteOrderMark). */
export function readJsonFileText(path: string): string {
  return stripByteOrderMark(readFileSync(path, "utf8"));
}
