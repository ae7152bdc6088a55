import { createOpenAICompatible } from "../../providers/openai-compatible/index.js";
import type { Provider } from "../../providers/provider.js";
import { createScriptedProvider, type ScriptedTurn } from "../../providers/scripted/index.js";
import type { ModelRequest } from "../../types/index.js";

/** A scripted model that serializes like an OpenAI-compatible server (vLLM): the wire the prefix guard checks. */
export interface WireProvider extends Provider {
  readonly requests: ModelRequest[];
}

export function createWireProvider(turns: ScriptedTurn[]): WireProvider {
  const scripted = createScriptedProvider({ turns, model: "Qwen/Qwen3-8B" });
  // No key or network is used: only the body builder of the real provider.
  const wire = createOpenAICompatible({ vendor: "vllm", model: "Qwen/Qwen3-8B", apiKey: "offline", baseURL: "http://127.0.0.1:9/v1" });
  return {
    specificationVersion: "v1",
    name: "openai-compatible:vllm (scripted)",
    model: scripted.model,
    stream: (request, signal) => scripted.stream(request, signal),
    serialize: (request) => wire.serialize(request),
    get requests() {
      return scripted.requests;
    },
  };
}
