import type { SystemPrompt } from "../types/index.js";

/**
 * A stored system prompt (a resumed session's, which already holds the policies' sections) without
 * those sections, so adding them again sends the same bytes as before. A base prompt passes as it is.
 */
export function withoutPolicySections(system: string | SystemPrompt, section: string | undefined): string | SystemPrompt {
  if (section === undefined || typeof system === "string" || system.sessionText === undefined) return system;
  if (system.sessionText === section) return { staticText: system.staticText };
  const suffix = `\n\n${section}`;
  return system.sessionText.endsWith(suffix) ? { staticText: system.staticText, sessionText: system.sessionText.slice(0, -suffix.length) } : system;
}
