import type { SerializedRequest } from "../../providers/provider.js";
import { buildOpenAIRequestBody } from "../../providers/openai-compatible/build-openai-request-body.js";
import type { ModelRequest } from "../../types/index.js";

/**
 * The wire body an OpenAI-compatible server would receive for a request: what the prefix guard
 * compares in the benchmarks (any real wire format would do; this is the most common one).
 */
export function serializeAsOpenAI(request: ModelRequest): SerializedRequest {
  return buildOpenAIRequestBody({ model: "benchmark", stream: true, reasoningRoundTrip: "send", request });
}
