import type { ToolDefinition } from "../types/index.js";

export type ToolLintCode =
  | "missing_description"
  | "one_line_description"
  | "no_when_to_use"
  | "parameter_without_description"
  | "enum_candidate"
  | "near_duplicate_names"
  | "too_many_tools"
  | "strict_mode_rejects";

export interface ToolLintFinding {
  code: ToolLintCode;
  /** The tool (and parameter, as `tool.parameter`) the finding is about; absent for the whole set. */
  target?: string;
  message: string;
}

/** Over this many tools the model starts choosing badly (the seed's "too many tools" anti-pattern). */
const toolLimit = 20;
const whenToUse = /\b(use (this|it|when|for|to|only)|when (the|a|you|to)|if (the|a|you)|before|after|only (if|when)|call (this|it)|do not use|don't use)\b/i;
const enumHint = /\b(one of|either|must be|can be|possible values|allowed values)\b[^.]*['"`]/i;

/**
 * Lints tool definitions the way the seed's tool-design advice reads them: each tool says what it
 * does and when to use it, each parameter is described, closed sets of values are enums, names are
 * not confusable, the set is not too large, and the schema passes OpenAI's and Anthropic's strict modes.
 */
export function lintToolDefinitions(tools: readonly ToolDefinition[]): ToolLintFinding[] {
  const findings: ToolLintFinding[] = [];
  if (tools.length > toolLimit) {
    findings.push({ code: "too_many_tools", message: `${tools.length} tools (over ${toolLimit}): group them, load rarely used ones on demand (tool search), or split the agent.` });
  }
  for (const tool of tools) {
    const description = tool.description.trim();
    if (description === "") findings.push({ code: "missing_description", target: tool.name, message: `'${tool.name}' has no description: say what it does, when to use it and what it returns.` });
    else {
      if (!description.includes("\n") && description.split(/(?<=[.!?])\s+/).length < 2) {
        findings.push({ code: "one_line_description", target: tool.name, message: `'${tool.name}' is described in one sentence; add when to use it, its limits and what it returns.` });
      }
      if (!whenToUse.test(description)) findings.push({ code: "no_when_to_use", target: tool.name, message: `'${tool.name}' does not say when to use it (or when not to).` });
    }
    findings.push(...lintParameters(tool));
    findings.push(...strictModeProblems(tool));
  }
  findings.push(...nearDuplicateNames(tools));
  return findings;
}

type Schema = Record<string, unknown>;

function lintParameters(tool: ToolDefinition): ToolLintFinding[] {
  const findings: ToolLintFinding[] = [];
  const visit = (schema: Schema, path: string) => {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [name, property] of Object.entries(properties)) {
      const target = `${tool.name}.${path}${name}`;
      const text = typeof property.description === "string" ? property.description.trim() : "";
      if (text === "") findings.push({ code: "parameter_without_description", target, message: `Parameter '${path}${name}' of '${tool.name}' has no description.` });
      if (property.type === "string" && property.enum === undefined && enumHint.test(text)) {
        findings.push({ code: "enum_candidate", target, message: `Parameter '${path}${name}' of '${tool.name}' lists its values in prose ("${clip(text)}"); make them an enum.` });
      }
      if (property.type === "object") visit(property, `${path}${name}.`);
      const items = property.items as Schema | undefined;
      if (property.type === "array" && items?.type === "object") visit(items, `${path}${name}[].`);
    }
  };
  visit(tool.parameters as Schema, "");
  return findings;
}

/**
 * What OpenAI's `strict: true` function calling rejects (Anthropic's strict tool use follows the
 * same structured-outputs subset): every object needs `additionalProperties: false` and all its
 * properties in `required`, and validation keywords outside the supported subset (lengths, ranges,
 * `default`, `uniqueItems`, `patternProperties`) are refused.
 */
function strictModeProblems(tool: ToolDefinition): ToolLintFinding[] {
  const problems: string[] = [];
  const unsupported = ["minLength", "maxLength", "minItems", "maxItems", "minimum", "maximum", "patternProperties", "uniqueItems", "default"];
  const visit = (schema: Schema, path: string) => {
    if (schema.type === "object" || schema.properties !== undefined) {
      const properties = Object.keys((schema.properties ?? {}) as Schema);
      if (schema.additionalProperties !== false) problems.push(`${path || "parameters"} lacks additionalProperties: false`);
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      const optional = properties.filter((name) => !required.has(name));
      if (optional.length > 0) problems.push(`${path || "parameters"} has optional properties (${optional.join(", ")}); strict mode needs all required, optional ones typed with null`);
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) visit(property, path ? `${path}.${name}` : name);
    }
    if (schema.items && typeof schema.items === "object") visit(schema.items as Schema, `${path}[]`);
    for (const keyword of unsupported) if (keyword in schema) problems.push(`${path || "parameters"} uses '${keyword}'`);
  };
  visit(tool.parameters as Schema, "");
  return problems.length === 0
    ? []
    : [{ code: "strict_mode_rejects", target: tool.name, message: `Strict mode (OpenAI strict: true / Anthropic strict tools) rejects '${tool.name}': ${problems.join("; ")}.` }];
}

function nearDuplicateNames(tools: readonly ToolDefinition[]): ToolLintFinding[] {
  const findings: ToolLintFinding[] = [];
  const normalized = tools.map((tool) => ({ name: tool.name, key: tool.name.toLowerCase().replace(/[^a-z0-9]/g, "") }));
  for (let first = 0; first < normalized.length; first++) {
    for (let second = first + 1; second < normalized.length; second++) {
      const left = normalized[first]!;
      const right = normalized[second]!;
      const distance = editDistance(left.key, right.key);
      if (distance <= Math.max(1, Math.floor(Math.min(left.key.length, right.key.length) / 8))) {
        findings.push({ code: "near_duplicate_names", target: `${left.name},${right.name}`, message: `'${left.name}' and '${right.name}' are easy to confuse (${distance} edits apart); rename one or merge them.` });
      }
    }
  }
  return findings;
}

function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    for (let column = 1; column <= right.length; column++) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      current[column] = Math.min((previous[column] ?? 0) + 1, (current[column - 1] ?? 0) + 1, (previous[column - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[right.length] ?? 0;
}

function clip(text: string): string {
  return text.length <= 80 ? text : `${text.slice(0, 77)}…`;
}
