import type { PromptDefinition, PromptFinding } from "./prompt-definition.js";

// A date, a clock time or an ISO timestamp: values that change between sessions or calls.
const dynamicValue = /\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}:\d{2}(:\d{2})?\b/;

/**
 * Checks a prompt definition against the seed's advice: rules hang off a procedure (a pile of
 * rules with no SOP leaves the model to guess priorities), every rule says what to do, and the
 * static part holds nothing that changes between sessions.
 */
export function lintPrompt(definition: PromptDefinition, staticText: string): PromptFinding[] {
  const findings: PromptFinding[] = [];
  if (definition.rules.length > 0 && definition.sop.length === 0) {
    findings.push({
      code: "rules_without_sop",
      message: `${definition.rules.length} rules but no SOP: give the steps the agent follows (sop: [...]) and let each rule say which step it constrains.`,
    });
  }
  definition.sop.forEach((step, index) => {
    if (step.trim() === "") findings.push({ code: "empty_sop_step", message: `SOP step ${index + 1} is empty.` });
  });
  const seen = new Set<string>();
  for (const rule of definition.rules) {
    if (rule.action.trim() === "") findings.push({ code: "rule_without_action", message: `The rule for '${rule.scope}' has no action: say what the agent must do.` });
    const key = `${rule.scope.trim().toLowerCase()}\u0000${rule.action.trim().toLowerCase()}`;
    if (seen.has(key)) findings.push({ code: "duplicate_rule", message: `The rule '${rule.scope}: ${rule.action}' appears twice.` });
    seen.add(key);
  }
  const dynamic = dynamicValue.exec(staticText);
  if (dynamic) {
    findings.push({
      code: "dynamic_value_in_static_part",
      message: `The static part contains '${dynamic[0]}'. If it changes between sessions, move it to session facts; if per call, to the status bar.`,
    });
  }
  return findings;
}
