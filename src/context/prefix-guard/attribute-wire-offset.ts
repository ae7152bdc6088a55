import type { SerializedRequest } from "../../providers/provider.js";
import { commonPrefixLength } from "../../tokens/common-prefix-tokens.js";
import type { LayerName, ModelRequest } from "../../types/index.js";

export interface WirePlace {
  layer: LayerName;
  index: number;
}

/**
 * Which layer of `request` produced the wire byte at `offset` (a character offset into its body
 * before the tail), found with the provider's own serializer — so it works for any wire format,
 * including ones that merge messages (Anthropic's tool results) or put tools after the system prompt.
 *
 * A serializer is append-only by contract: the body of the request cut after message k starts the
 * body of the whole request up to the end of message k. So the message whose text holds `offset` is
 * the first k whose cut body reaches past it (binary search, O(log n) serializations — run only on
 * a break). Before the first message, variants without tools or with a different system prompt show
 * where each starts; what comes before all of them is the request's own fields (model, settings).
 */
export function attributeWireOffset(request: ModelRequest, serialize: (request: ModelRequest) => SerializedRequest, offset: number): WirePlace {
  const cut = (count: number) => serialize({ ...request, messages: request.messages.slice(0, count), tail: undefined, cacheBreakpoints: [] });
  const headEnd = cut(0).prefixLength;
  if (offset >= headEnd) {
    let low = 1;
    let high = request.messages.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cut(middle).prefixLength > offset) high = middle;
      else low = middle + 1;
    }
    return { layer: "message", index: Math.max(0, low - 1) };
  }
  return attributeHeadOffset(request, serialize, offset);
}

function attributeHeadOffset(request: ModelRequest, serialize: (request: ModelRequest) => SerializedRequest, offset: number): WirePlace {
  const bare: ModelRequest = { ...request, messages: [], tail: undefined, cacheBreakpoints: [] };
  const body = serialize(bare).body;
  // Where a part starts: the first byte that changes when the part is changed or left out. A
  // variant the serializer refuses tells nothing (and must not turn a report into a throw).
  const startOf = (variant: ModelRequest) => {
    try {
      return commonPrefixLength(serialize(variant).body, body);
    } catch {
      return Number.POSITIVE_INFINITY;
    }
  };
  const { staticText, sessionText } = request.system;
  const starts: Array<{ place: WirePlace; start: number }> = [
    { place: { layer: "system_static", index: 0 }, start: startOf({ ...bare, system: { ...request.system, staticText: `\u0001${staticText}` } }) },
    ...(sessionText === undefined ? [] : [{ place: { layer: "system_session" as const, index: 0 }, start: startOf({ ...bare, system: { staticText, sessionText: `\u0001${sessionText}` } }) }]),
  ];
  request.tools.forEach((_tool, index) => {
    starts.push({ place: { layer: "tools", index }, start: startOf({ ...bare, tools: request.tools.filter((_entry, position) => position !== index) }) });
  });
  let best: { place: WirePlace; start: number } | undefined;
  for (const candidate of starts) {
    if (candidate.start <= offset && (best === undefined || candidate.start > best.start)) best = candidate;
  }
  return best?.place ?? { layer: "request", index: 0 };
}
