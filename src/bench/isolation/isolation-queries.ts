/**
 * The "find where X is handled" tasks of the isolation bench, over ctxkit's own `src/`. Each names
 * a behaviour by the identifier the code uses for it, so a scripted search finds it with grep
 * whatever the code base's size. Nothing is tuned on them: every arm runs the same script.
 */
export interface IsolationQuery {
  name: string;
  /** What the main agent is asked (also the sub-agent's self-contained prompt). */
  question: string;
  /** What the scripted search greps for. */
  pattern: string;
}

export const isolationQueries: readonly IsolationQuery[] = [
  { name: "torn-line", question: "Find where a torn last line of a session file is handled, and report the files and lines.", pattern: "torn_last_line" },
  { name: "context-overflow", question: "Find where a context overflow from the provider is handled, and report the files and lines.", pattern: "context_overflow" },
  { name: "repeated-call", question: "Find where a repeated identical tool call is handled, and report the files and lines.", pattern: "repeated_tool_call" },
  { name: "body-mismatch", question: "Find where a session body hash mismatch is handled, and report the files and lines.", pattern: "session_body_mismatch" },
];
