import { canonicalJson } from "../providers/shared/canonical-json.js";
import type { ToolCallPart } from "../types/index.js";

export type RepeatVerdict = "ok" | "warn" | "stop";

/**
 * Counts identical consecutive tool calls (same name, same arguments) across turns. Models loop
 * this way when a result does not change ("call it again, maybe it works now") and no framework
 * notices. At `limit` identical calls in a row the call is not run and the model is warned; one more
 * and the run stops.
 */
export function createRepeatedCallDetector(limit: number): (call: ToolCallPart) => RepeatVerdict {
  let lastKey: string | undefined;
  let count = 0;
  return (call) => {
    const key = `${call.name}\u0000${call.arguments === undefined ? call.argumentsText : canonicalJson(call.arguments)}`;
    count = key === lastKey ? count + 1 : 1;
    lastKey = key;
    if (count > limit) return "stop";
    if (count === limit) return "warn";
    return "ok";
  };
}
