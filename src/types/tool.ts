/** A JSON Schema object (draft 2020-12 / draft-07 subset that providers accept). */
export type JsonSchema = { [key: string]: unknown };

/** What the model sees of a tool: a name, a description written for the model, and its parameters. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** A tool's failure kind, used to write a helpful error result for the model. */
export type ToolErrorKind =
  | "not_found"
  | "permission"
  | "timeout"
  | "invalid_arguments"
  | "unknown_tool"
  | "rejected"
  | "failed";
