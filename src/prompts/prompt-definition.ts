/** A business rule written the way the seed recommends: where it applies, what to do, its exception, how to check. */
export interface PromptRule {
  scope: string;
  action: string;
  exception?: string;
  verify?: string;
}

/** When the model should reach for a tool (the schema's own description says what it does). */
export interface PromptTool {
  name: string;
  whenToUse: string;
}

/** A few-shot example. Fixed once: rotating examples breaks the cache and confuses the model. */
export interface PromptExample {
  user: string;
  assistant: string;
}

export interface PromptDefinition {
  /** Who the agent is and for whom it works. */
  role: string;
  /** Facts about the domain the procedure relies on (optional). */
  background?: string[];
  /** The standard operating procedure: the steps in order. */
  sop: string[];
  rules: PromptRule[];
  tools?: PromptTool[];
  examples?: PromptExample[];
  format: "markdown" | "xml";
  /**
   * Facts fixed for one session (the user's name, plan, locale), rendered after the cache boundary.
   * Never times or counters: those change per call and belong in the status bar.
   */
  session?: Record<string, string>;
}

export interface PromptFinding {
  code: "rules_without_sop" | "empty_sop_step" | "rule_without_action" | "dynamic_value_in_static_part" | "duplicate_rule";
  message: string;
}
