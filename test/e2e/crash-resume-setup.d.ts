// Types of the setup module the crash test writes for its child process.
import type { SystemPrompt, Tool } from "../../src/index.js";
export declare const system: SystemPrompt;
export declare const tools: Tool<{ city: string }>[];
