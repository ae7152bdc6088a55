/** A JSON Schema object (draft 2020-12 / draft-07 subset that providers accept). */
export type JsonSchema = { [key: string]: unknown };

/** What the model sees of a tool: a name, a description written for the model, and its parameters. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
}
