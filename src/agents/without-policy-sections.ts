import type { SystemPrompt } from "../types/index.js";

/**
 * A stored system prompt (a resumed session's, which already holds the policies' sections) without
 * those sections, so adding them again sends the same bytes as before. A base prompt passes as it is.
 * When the sections render otherwise than when the session started (a skill edited since, another
 * MCP server's instructions), the stored ones are cut from where they began — found by the first
 * line of the new sections — so the resumed prompt holds the current ones once, not both.
 */
export function withoutPolicySections(system: string | SystemPrompt, section: string | undefined): string | SystemPrompt {
  if (section === undefined || typeof system === "string" || system.sessionText === undefined) return system;
  if (system.sessionText === section) return { staticText: system.staticText };
  const suffix = `\n\n${section}`;
  if (system.sessionText.endsWith(suffix)) return { staticText: system.staticText, sessionText: system.sessionText.slice(0, -suffix.length) };
  const firstLine = `${section.split("\n", 1)[0]!}\n`;
  if (system.sessionText.startsWith(firstLine)) return { staticText: system.staticText };
  const at = system.sessionText.indexOf(`\n\n${firstLine}`);
  return at < 0 ? system : { staticText: system.staticText, sessionText: system.sessionText.slice(0, at) };
}
