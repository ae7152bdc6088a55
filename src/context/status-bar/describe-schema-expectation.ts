import type { JsonSchema } from "../../types/index.js";

/**
 * A tool's parameters in one line for an invalid-arguments error:
 * `required: path (string); optional: offset (integer ≥ 1), mode ("a" | "b"); no other keys`.
 * Shorter than the schema and easier for a model to act on. Pure.
 */
export function describeSchemaExpectation(schema: JsonSchema): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const describe = (name: string) => `${name} (${describeType(properties[name] ?? {})})`;
  const names = Object.keys(properties);
  const parts: string[] = [];
  const requiredNames = names.filter((name) => required.has(name));
  const optionalNames = names.filter((name) => !required.has(name));
  if (requiredNames.length > 0) parts.push(`required: ${requiredNames.map(describe).join(", ")}`);
  if (optionalNames.length > 0) parts.push(`optional: ${optionalNames.map(describe).join(", ")}`);
  if (names.length === 0) parts.push("no parameters");
  if (schema.additionalProperties === false && names.length > 0) parts.push("no other keys");
  return parts.join("; ");
}

function describeType(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : typeof schema.type === "string" ? schema.type : "any";
  if (type === "array" && schema.items && typeof schema.items === "object") {
    const items = schema.items as JsonSchema;
    return items.type === "object" && items.properties ? `array of {${describeSchemaExpectation(items)}}` : `array of ${describeType(items)}`;
  }
  const bounds: string[] = [];
  if (typeof schema.minimum === "number") bounds.push(`≥ ${schema.minimum}`);
  if (typeof schema.maximum === "number") bounds.push(`≤ ${schema.maximum}`);
  if (typeof schema.minItems === "number") bounds.push(`at least ${schema.minItems} item${schema.minItems === 1 ? "" : "s"}`);
  return [type, ...bounds].join(" ");
}
