import { ConfigError } from "../types/index.js";
import type { PromptDefinition } from "./prompt-definition.js";

const shape = "definePrompt({ role, sop: [steps], rules: [{ scope, action }], format: \"markdown\" | \"xml\" })";

/**
 * Misuse from plain JavaScript (or a cast) named in the caller's terms: `definePrompt({})` failed with
 * "Cannot read properties of undefined (reading 'trim')" from inside the renderer.
 */
export function checkPromptDefinition(definition: PromptDefinition): void {
  if (definition === null || typeof definition !== "object") refuse(`definePrompt needs a definition object: ${shape}.`);
  if (typeof definition.role !== "string") refuse(`definePrompt needs \`role\`: a string saying who the agent is and for whom it works (${shape}).`);
  checkStrings(definition.sop, "sop", "the procedure's steps in order ([] for none)");
  if (!Array.isArray(definition.rules)) refuse(`definePrompt needs \`rules\`: a list of { scope, action, exception?, verify? } ([] for none) (${shape}).`);
  definition.rules.forEach((rule: unknown, index) => {
    const fields = rule as Partial<Record<string, unknown>> | null;
    for (const field of ["scope", "action"] as const) {
      if (typeof fields?.[field] !== "string") refuse(`definePrompt's rules[${index}] needs \`${field}\`: a string (a rule is { scope, action, exception?, verify? }).`);
    }
    // The renderer trims them when set: a number or a list there was the same TypeError from inside it.
    for (const field of ["exception", "verify"] as const) {
      const value = fields?.[field];
      if (value !== undefined && value !== null && typeof value !== "string") refuse(`definePrompt's rules[${index}].${field} must be a string when given (a rule is { scope, action, exception?, verify? }).`);
    }
  });
  if (definition.format !== "markdown" && definition.format !== "xml") {
    refuse(`definePrompt needs \`format\`: "markdown" or "xml"; got ${JSON.stringify(definition.format) ?? "undefined"}.`);
  }
  if (definition.background !== undefined) checkStrings(definition.background, "background", "facts about the domain");
  checkItems(definition.tools, "tools", ["name", "whenToUse"]);
  checkItems(definition.examples, "examples", ["user", "assistant"]);
  if (definition.session !== undefined && (definition.session === null || typeof definition.session !== "object" || Object.values(definition.session).some((value) => typeof value !== "string"))) {
    refuse("definePrompt's `session` must be an object of strings (the session's fixed facts, e.g. { user: \"Ada\" }).");
  }
}

function checkStrings(value: unknown, name: string, what: string): void {
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) refuse(`definePrompt needs \`${name}\`: a list of strings, ${what} (${shape}).`);
}

function checkItems(value: unknown, name: string, fields: readonly string[]): void {
  if (value === undefined) return;
  const described = `{ ${fields.join(", ")} }`;
  if (!Array.isArray(value)) refuse(`definePrompt's \`${name}\` must be a list of ${described}.`);
  value.forEach((item: unknown, index) => {
    const record = item as Partial<Record<string, unknown>> | null;
    for (const field of fields) {
      if (typeof record?.[field] !== "string") refuse(`definePrompt's ${name}[${index}] needs \`${field}\`: a string (each is ${described}).`);
    }
  });
}

function refuse(message: string): never {
  throw new ConfigError("option_invalid", message);
}
