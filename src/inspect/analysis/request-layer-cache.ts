import { createHash } from "node:crypto";
import { visibleText, type LayerName, type RequestLayer } from "../../context/prefix-guard/index.js";
import { canonicalJson } from "../../providers/shared/canonical-json.js";
import type { ModelRequest } from "../../types/index.js";

export interface RequestLayerCache {
  /** The request's layers exactly as the prefix guard's `toRequestLayers` builds them. */
  layersOf(request: ModelRequest): RequestLayer[];
}

/**
 * `toRequestLayers` with memory: a message, tool or system text seen before (the same object, or
 * the same text) is not serialised and hashed again. Transcripts share message objects between
 * calls, so a call costs O(new messages) instead of O(context) — the difference between seconds and
 * minutes on a 500-call run.
 */
export function createRequestLayerCache(): RequestLayerCache {
  const byObject = new WeakMap<object, { text: string; hash: string }>();
  const byText = new Map<string, string>();

  const hashOf = (text: string): string => {
    let hash = byText.get(text);
    if (hash === undefined) {
      hash = createHash("sha1").update(text).digest("base64url");
      byText.set(text, hash);
    }
    return hash;
  };
  const fromObject = (object: object, name: LayerName, index: number, serialise: () => string): RequestLayer => {
    let cached = byObject.get(object);
    if (cached === undefined) {
      const text = serialise();
      cached = { text, hash: createHash("sha1").update(text).digest("base64url") };
      byObject.set(object, cached);
    }
    return { layer: name, index, text: cached.text, hash: cached.hash };
  };

  return {
    layersOf(request) {
      const layers: RequestLayer[] = [{ layer: "system_static", index: 0, text: request.system.staticText, hash: hashOf(request.system.staticText) }];
      const sessionText = request.system.sessionText;
      if (sessionText !== undefined) layers.push({ layer: "system_session", index: 0, text: sessionText, hash: hashOf(sessionText) });
      request.tools.forEach((tool, index) => layers.push(fromObject(tool, "tools", index, () => canonicalJson(tool))));
      request.messages.forEach((message, index) => layers.push(fromObject(message, "message", index, () => visibleText(message))));
      if (request.tail !== undefined) {
        const tail = request.tail;
        layers.push(fromObject(tail, "tail", 0, () => visibleText(tail)));
      }
      return layers;
    },
  };
}
