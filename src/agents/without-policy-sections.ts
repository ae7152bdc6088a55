import type { SystemPrompt } from "../types/index.js";

/**
 * A stored system prompt (a resumed session's, which already holds the policies' sections) without
 * those sections, so adding them again sends the same bytes as before. A base prompt passes as it is.
 * Only sections that render exactly as now are taken off: taking them off a base prompt that happens
 * to end with them changes nothing once they are added back. Sections that render otherwise now (a
 * skill edited since) are not searched for in the text, where an AGENTS.md or a caller's prompt could
 * hold the same heading and be cut: a resume gives the base prompt from the session's record instead
 * (`storedPromptParts`, which reads where the sections began).
 */
export function withoutPolicySections(system: string | SystemPrompt, section: string | undefined): string | SystemPrompt {
  if (section === undefined || typeof system === "string" || system.sessionText === undefined) return system;
  if (system.sessionText === section) return { staticText: system.staticText };
  const suffix = `\n\n${section}`;
  return system.sessionText.endsWith(suffix) ? { staticText: system.staticText, sessionText: system.sessionText.slice(0, -suffix.length) } : system;
}
