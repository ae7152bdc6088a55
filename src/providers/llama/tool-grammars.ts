import type { LlamaGrammar } from "node-llama-cpp";
import type { ToolDefinition } from "../../types/tool.js";
import { buildToolCallGrammar, toToolCallSchema, type ToolCallGrammarStart } from "./build-tool-call-grammar.js";
import type { LlamaEngine } from "./load-llama-engine.js";

export interface ToolGrammars {
  /** The grammar for calls to the active tools, compiled once per tool set, active names and start. */
  get(tools: readonly ToolDefinition[], activeNames: ReadonlySet<string>, start: ToolCallGrammarStart, parallel: boolean): Promise<LlamaGrammar>;
}

const maxCachedGrammars = 64;
/** Qwen3 emits at most this many parallel calls in one response under the grammar. */
const maxParallelCalls = 8;

export function createToolGrammars(engine: Pick<LlamaEngine, "llama">): ToolGrammars {
  const cache = new Map<string, Promise<LlamaGrammar>>();
  return {
    get(tools, activeNames, start, parallel) {
      const schema = toToolCallSchema(tools, activeNames);
      const key = `${start}\u0000${parallel}\u0000${JSON.stringify(schema)}`;
      let grammar = cache.get(key);
      if (grammar === undefined) {
        if (cache.size >= maxCachedGrammars) cache.clear();
        grammar = (async () => {
          // The schema is built from ToolDefinition JSON; node-llama-cpp's schema type is a strict
          // subset the conversion above keeps to.
          const callJson = await engine.llama.createGrammarForJsonSchema(schema as never);
          return engine.llama.createGrammar({ grammar: buildToolCallGrammar(callJson.grammar, start, parallel ? maxParallelCalls : 1) });
        })();
        grammar.catch(() => cache.delete(key));
        cache.set(key, grammar);
      }
      return grammar;
    },
  };
}
