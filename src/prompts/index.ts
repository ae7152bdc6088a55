export { definePrompt, type DefinedPrompt } from "./define-prompt.js";
export { lintPrompt } from "./lint-prompt.js";
export type { PromptDefinition, PromptExample, PromptFinding, PromptRule, PromptTool } from "./prompt-definition.js";
export { lintToolDefinitions, type ToolLintCode, type ToolLintFinding } from "./lint-tool-definitions.js";
