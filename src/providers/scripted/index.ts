export { createScriptedProvider, type ScriptedProvider, type ScriptedProviderOptions } from "./create-scripted-provider.js";
export type { ScriptedToolCall, ScriptedTurn } from "./scripted-turn.js";
