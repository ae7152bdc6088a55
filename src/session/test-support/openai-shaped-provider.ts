import { createOpenAICompatible } from "../../providers/openai-compatible/index.js";
import type { Provider } from "../../providers/provider.js";
import { createScriptedProvider, type ScriptedTurn } from "../../providers/scripted/index.js";

/** A scripted model whose wire format is OpenAI's, so the recorded hashes are of real wire bodies. */
export function openAIShaped(turns: ScriptedTurn[]): Provider {
  const wire = createOpenAICompatible({ vendor: "vllm", model: "qwen3", baseURL: "http://127.0.0.1:9/v1" });
  const scripted = createScriptedProvider({ turns });
  return { specificationVersion: "v1", name: wire.name, model: wire.model, stream: scripted.stream.bind(scripted), serialize: wire.serialize.bind(wire) };
}
