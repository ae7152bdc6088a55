import type { ContextPolicy } from "../context/context-policy.js";
import { defaultLeakChars, findSystemPromptLeak } from "./find-system-prompt-leak.js";

export const leakWithholdingPolicyName = "leak-withholding";

/**
 * Withholds a final answer that repeats the system prompt verbatim (a run of `minChars`, default
 * 80, characters): the run's `finalText` becomes a note and a `system_prompt_leak` warning says
 * why; the trajectory keeps what the model wrote. The output side of the defence against "print
 * your system prompt" — no instruction in the context can turn it off. Streamed text deltas are
 * not held back; a caller that shows them live should show `finalText` instead when it matters.
 */
export function createLeakWithholding(options: { minChars?: number } = {}): ContextPolicy {
  const minChars = options.minChars ?? defaultLeakChars;
  return {
    name: leakWithholdingPolicyName,
    inherit: "share",
    onFinalText(text, { system }) {
      const leak = findSystemPromptLeak([system.staticText, system.sessionText ?? ""].join("\n"), text, minChars);
      if (!leak) return undefined;
      return {
        text: `[withheld: the answer repeated ${leak.chars} characters of the system prompt]`,
        warnings: [{ code: "system_prompt_leak", message: `The answer repeated ${leak.chars} characters of the system prompt verbatim; it was withheld.` }],
      };
    },
  };
}
