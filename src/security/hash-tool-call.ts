import { createHash } from "node:crypto";
import { canonicalJson } from "../providers/shared/canonical-json.js";

/**
 * What an approval of a guarded call is bound to: the tool's name and a hash of its canonical
 * arguments (keys sorted, no whitespace). Two calls share it only when they would do exactly the
 * same thing; one changed byte in any argument gives another hash, so another question.
 */
export function hashToolCall(toolName: string, args: unknown): string {
  return createHash("sha256").update(`${toolName}\u0000${canonicalJson(args)}`).digest("hex");
}
