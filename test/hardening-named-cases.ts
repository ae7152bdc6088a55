import { expect } from "vitest";

/** The cases the hardening issues named, each found by name in a `bench hardening` run (in-process and as the built binary). */
export function expectNamedHardeningCases(names: string): void {
  for (const original of ["^(a+)+$", "FIFO", "stalls after the headers", "same index", "index in use", "duplicated session line", "50 MB", "max_results 1000000", "200k-character word", "overflow: Gemini"]) {
    expect(names).toContain(original);
  }
  // Issue 30's cases: session self-consistency, big-event SSE, the listing race, process groups, a 50 MB string.
  for (const original of [
    "session self-consistency: final answer removed, run_end still says final_answer",
    "session self-consistency: a usage figure edited into another valid number",
    "session self-consistency: a tool result edited: resume refused and the file named as edited",
    "session self-consistency: header edited from format 4 to 3",
    "session self-consistency: a trailing blank line",
    "session self-consistency: compacted session, last tool message removed",
    "openai: SSE time linear in one event's size",
    "anthropic: SSE time linear in one event's size",
    "list_dir/glob/grep under a folder<->link racer (flip",
    "list_dir/glob/grep under a folder<->link racer (swap",
    "bash: (sleep 25 &) ends with its call",
    'bash: setsid sh -c "sleep 26" killed on timeout',
    "bash: env -i setsid escape killed on timeout",
    "a tool returning a 50 MB string",
    "overflow: Cohere",
  ]) {
    expect(names).toContain(original);
  }
}
