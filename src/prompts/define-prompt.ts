import type { SystemPrompt } from "../types/index.js";
import type { PromptDefinition, PromptFinding, PromptRule } from "./prompt-definition.js";
import { checkPromptDefinition } from "./check-prompt-definition.js";
import { lintPrompt } from "./lint-prompt.js";

export interface DefinedPrompt extends SystemPrompt {
  /** Problems in the definition (a rules pile with no SOP, a timestamp in the static part…). */
  findings: PromptFinding[];
}

/**
 * Renders a system prompt deterministically — the same definition gives the same bytes, with no
 * dates, ids or counters added — split at the cache boundary: everything shared by every session
 * in `staticText`, the session's fixed facts in `sessionText`.
 */
export function definePrompt(definition: PromptDefinition): DefinedPrompt {
  checkPromptDefinition(definition);
  const render = definition.format === "xml" ? renderXml : renderMarkdown;
  const staticText = render(definition);
  const session = definition.session && Object.keys(definition.session).length > 0 ? renderSession(definition.session, definition.format) : undefined;
  return { staticText, ...(session ? { sessionText: session } : {}), findings: lintPrompt(definition, staticText) };
}

function renderMarkdown(definition: PromptDefinition): string {
  const sections = [`# Role\n\n${definition.role.trim()}`];
  if (definition.background?.length) sections.push(`## Background\n\n${definition.background.map((fact) => `- ${fact.trim()}`).join("\n")}`);
  if (definition.sop.length > 0) sections.push(`## Procedure\n\nFollow these steps in order:\n\n${definition.sop.map((step, index) => `${index + 1}. ${step.trim()}`).join("\n")}`);
  if (definition.rules.length > 0) sections.push(`## Rules\n\n${definition.rules.map(markdownRule).join("\n")}`);
  if (definition.tools?.length) sections.push(`## Tools\n\n${definition.tools.map((tool) => `- \`${tool.name}\`: ${tool.whenToUse.trim()}`).join("\n")}`);
  if (definition.examples?.length) {
    sections.push(`## Examples\n\n${definition.examples.map((example, index) => `### Example ${index + 1}\n\nUser: ${example.user.trim()}\n\nAssistant: ${example.assistant.trim()}`).join("\n\n")}`);
  }
  return `${sections.join("\n\n")}\n`;
}

function markdownRule(rule: PromptRule): string {
  const parts = [`- **${rule.scope.trim()}**: ${rule.action.trim()}`];
  if (rule.exception) parts.push(`  - Exception: ${rule.exception.trim()}`);
  if (rule.verify) parts.push(`  - Verify: ${rule.verify.trim()}`);
  return parts.join("\n");
}

function renderXml(definition: PromptDefinition): string {
  const lines = [`<role>${escapeXml(definition.role.trim())}</role>`];
  if (definition.background?.length) lines.push("<background>", ...definition.background.map((fact) => `  <fact>${escapeXml(fact.trim())}</fact>`), "</background>");
  if (definition.sop.length > 0) lines.push("<procedure>", ...definition.sop.map((step, index) => `  <step n="${index + 1}">${escapeXml(step.trim())}</step>`), "</procedure>");
  if (definition.rules.length > 0) {
    lines.push("<rules>");
    for (const rule of definition.rules) {
      lines.push(`  <rule scope="${escapeXml(rule.scope.trim())}">`, `    <action>${escapeXml(rule.action.trim())}</action>`);
      if (rule.exception) lines.push(`    <exception>${escapeXml(rule.exception.trim())}</exception>`);
      if (rule.verify) lines.push(`    <verify>${escapeXml(rule.verify.trim())}</verify>`);
      lines.push("  </rule>");
    }
    lines.push("</rules>");
  }
  if (definition.tools?.length) lines.push("<tools>", ...definition.tools.map((tool) => `  <tool name="${escapeXml(tool.name)}">${escapeXml(tool.whenToUse.trim())}</tool>`), "</tools>");
  if (definition.examples?.length) {
    lines.push("<examples>");
    for (const example of definition.examples) lines.push("  <example>", `    <user>${escapeXml(example.user.trim())}</user>`, `    <assistant>${escapeXml(example.assistant.trim())}</assistant>`, "  </example>");
    lines.push("</examples>");
  }
  return `${lines.join("\n")}\n`;
}

function renderSession(session: Record<string, string>, format: PromptDefinition["format"]): string {
  const entries = Object.entries(session);
  if (format === "xml") return `<session>\n${entries.map(([key, value]) => `  <fact name="${escapeXml(key)}">${escapeXml(value)}</fact>`).join("\n")}\n</session>\n`;
  return `## This session\n\n${entries.map(([key, value]) => `- ${key}: ${value}`).join("\n")}\n`;
}

function escapeXml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}
