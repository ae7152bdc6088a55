/** One kind of text from the corpus, as separate pieces (messages, arguments, documents). */
export interface TextCategory {
  /** Stable key for JSON: "tau-dialogues", "tau-policies", "tool-schemas", "swe-gemini", "chinese". */
  id: string;
  /** Row label in the table. */
  name: string;
  /** What was read, and how it was sampled. */
  source: string;
  texts: string[];
  /**
   * For each text, the unit it belongs to (a dialogue's task id, a run, a tool, a document section):
   * the fit/held-out split keeps a group whole.
   */
  groups: string[];
}

/** A category whose files were not found; its row is left out. */
export interface SkippedCategory {
  id: string;
  name: string;
  missing: string[];
}
