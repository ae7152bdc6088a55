import { toCliMessage } from "../cli-error-message.js";

/** The embedded engine's output limit in `ctxkit demo --engine`; the demo takes no flag to change it. */
export const engineDemoMaxOutputTokens = 120;

/**
 * A warning as `ctxkit demo --engine` says it. The loop's output_truncated advice, at the command
 * line "raise --max-output-tokens", names a flag demo does not take; its limit is fixed and its
 * random-weight model writes noise until it is cut, so being cut is expected there.
 */
export function engineDemoWarningText(warning: { code: string; message: string }): string {
  if (warning.code !== "output_truncated") return toCliMessage(warning);
  const said = warning.message.replace(/(?:;|\.) [Rr]aise maxOutputTokens\b[^.]*\./, ".");
  return `${said} The demo's limit is fixed at ${engineDemoMaxOutputTokens} tokens and its random-weight model writes noise until it is cut, so this is expected here (with a real model, ctxkit run --max-output-tokens sets the limit).`;
}
