import type { ModelRequest } from "../../types/index.js";
import type { SerializedRequest } from "../provider.js";
import { buildAnthropicRequestBody, type AnthropicBodySettings } from "./build-anthropic-request-body.js";

/**
 * The prompt as the model sees it, for the prefix guard: the request body without `cache_control`
 * markers and `context_management`. Neither is prompt content: the marker on the newest message
 * moves forward every call, and a call that asks the server to compact now carries its own trigger,
 * so keeping them would make those calls look like cache breaks. What a server edit does to the
 * cache the server reports itself (applied edits, `usage.iterations`), and the miss is named for it.
 *
 * `prefixLength` ends right after the last block that comes from the trajectory. The tail may share a
 * user message with tool results, and the next call may append blocks to that same message, so the
 * prefix cannot include any closing bracket after that block. It is computed from the body built
 * without the tail: messages are the last key and every message's content is a block array, so that
 * body ends with `]}]}` (content, message, messages, body) — or `]}` when there are no messages — and
 * everything before those brackets is also the start of the body with the tail.
 */
export function serializeAnthropicRequest(request: ModelRequest, settings: AnthropicBodySettings): SerializedRequest {
  const body = JSON.stringify(buildAnthropicRequestBody(request, settings, { includeCacheControl: false, includeContextManagement: false, includeTail: true }));
  const withoutTail = buildAnthropicRequestBody(request, settings, { includeCacheControl: false, includeContextManagement: false, includeTail: false });
  const closing = withoutTail.messages.length === 0 ? "]}" : "]}]}";
  return { body, prefixLength: JSON.stringify(withoutTail).length - closing.length };
}
