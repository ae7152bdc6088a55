import { detectChangedEarlierMessage } from "./changed-earlier-message.js";
import { detectDeletedHistory } from "./deleted-history.js";
import { detectDynamicSystemPrompt } from "./dynamic-system-prompt.js";
import type { Finding, FindingDetector, FindingInput } from "./finding.js";
import { detectFlattenedHistory } from "./flattened-history.js";
import { detectReasoningDropped } from "./reasoning-dropped.js";
import { detectToolOutputInUser } from "./tool-output-in-user.js";
import { detectToolsReordered } from "./tools-reordered.js";
import { detectCacheMisses } from "./cache-misses.js";

/** Every detector, in the order findings are reported. */
export const findingDetectors: readonly FindingDetector[] = [
  detectDynamicSystemPrompt,
  detectToolsReordered,
  detectDeletedHistory,
  detectChangedEarlierMessage,
  detectFlattenedHistory,
  detectToolOutputInUser,
  detectReasoningDropped,
  detectCacheMisses,
];

/** The anti-patterns of one analysed transcript. Pure. */
export function detectFindings(input: FindingInput): Finding[] {
  return findingDetectors.flatMap((detect) => detect(input) ?? []);
}
