import { createTinyQwen3Gguf } from "./gguf/create-tiny-qwen3-gguf.js";
import { defineTool } from "../../tools/tool.js";
import type { ModelRequest } from "../../types/model-request.js";
import type { ProviderEvent } from "../provider.js";
import type { Provider } from "../provider.js";

/** The generated test model, shared by every test file through the temp-directory cache. */
export function tinyModelPath(): Promise<string> {
  return createTinyQwen3Gguf();
}

export const lookupTool = defineTool<{ key: "alpha" | "beta" }>({
  name: "lookup",
  description: "Looks a key up.",
  parameters: { type: "object", properties: { key: { type: "string", enum: ["alpha", "beta"] } }, required: ["key"] },
  parallelSafe: true,
  async execute({ key }) {
    return `value of ${key}: 42`;
  },
});

export const noteTool = defineTool<Record<string, never>>({
  name: "note",
  description: "Writes a note.",
  parameters: { type: "object", properties: {} },
  async execute() {
    return "noted";
  },
});

export function userRequest(text: string, overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: { staticText: "You are a test agent." },
    tools: [lookupTool, noteTool].map(({ name, description, parameters }) => ({ name, description, parameters })),
    messages: [{ role: "user", content: text, meta: { id: "u1", origin: "user", createdAt: "2026-01-01T00:00:00.000Z" } }],
    cacheBreakpoints: [],
    settings: {},
    ...overrides,
  };
}

export async function collect(stream: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** A provider that records the requests it forwards. */
export function recording(provider: Provider): Provider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    specificationVersion: provider.specificationVersion,
    name: provider.name,
    model: provider.model,
    requests,
    serialize: (request) => provider.serialize(request),
    stream(request, signal) {
      requests.push(request);
      return provider.stream(request, signal);
    },
  };
}
