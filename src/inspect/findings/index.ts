export type { Finding, FindingCode, FindingDetector, FindingInput, FindingSeverity } from "./finding.js";
export { detectFindings, findingDetectors } from "./detect-findings.js";
export { detectDynamicSystemPrompt } from "./dynamic-system-prompt.js";
export { detectToolsReordered } from "./tools-reordered.js";
export { detectDeletedHistory } from "./deleted-history.js";
export { detectChangedEarlierMessage } from "./changed-earlier-message.js";
export { detectFlattenedHistory } from "./flattened-history.js";
export { detectToolOutputInUser } from "./tool-output-in-user.js";
export { detectReasoningDropped } from "./reasoning-dropped.js";
