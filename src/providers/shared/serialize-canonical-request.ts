import type { ModelRequest } from "../../types/index.js";
import type { SerializedRequest } from "../provider.js";
import { canonicalJson } from "./canonical-json.js";

/**
 * A provider-neutral wire form of a request: the internal messages as JSON, prefix first, tail
 * last. Used by providers that have no wire format of their own (scripted, replay). Cache
 * breakpoints are left out: they are not part of what the model reads.
 */
export function serializeCanonicalRequest(request: ModelRequest): SerializedRequest {
  const head =
    `{"system":${canonicalJson(request.system)},"tools":${canonicalJson(request.tools)},` +
    `"settings":${canonicalJson(request.settings)},"messages":[`;
  const messages = request.messages.map((message) => JSON.stringify(message)).join(",");
  const prefix = head + messages;
  if (!request.tail) return { body: `${prefix}]}`, prefixLength: prefix.length };
  const separator = request.messages.length > 0 ? "," : "";
  return { body: `${prefix}${separator}${JSON.stringify(request.tail)}]}`, prefixLength: prefix.length };
}
