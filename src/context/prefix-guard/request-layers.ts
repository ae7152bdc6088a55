import { createHash } from "node:crypto";
import type { LayerName, Message, ModelRequest } from "../../types/index.js";
import { canonicalJson } from "../../providers/shared/canonical-json.js";

export type { LayerName };

export interface RequestLayer {
  layer: LayerName;
  /** Position within its layer: the tool's index, or the message's index in the trajectory. */
  index: number;
  /** What the model reads of this part (ids and timestamps of ctxkit's own metadata excluded). */
  text: string;
  hash: string;
}

/**
 * Splits a request into its layers: static system, session system, each tool, each trajectory
 * message, then the tail. Pure; the same request always gives the same layers and hashes.
 */
export function toRequestLayers(request: ModelRequest): RequestLayer[] {
  const layers: RequestLayer[] = [layer("system_static", 0, request.system.staticText)];
  if (request.system.sessionText !== undefined) layers.push(layer("system_session", 0, request.system.sessionText));
  request.tools.forEach((tool, index) => layers.push(layer("tools", index, canonicalJson(tool))));
  request.messages.forEach((message, index) => layers.push(messageLayer(message, index)));
  if (request.tail) layers.push(layer("tail", 0, visibleText(request.tail)));
  return layers;
}

// Sent messages never change, so each message object's text and hash are computed once: checking
// a call then costs O(new messages), not O(context).
const messageLayers = new WeakMap<Message, { text: string; hash: string }>();

function messageLayer(message: Message, index: number): RequestLayer {
  let cached = messageLayers.get(message);
  if (cached === undefined) {
    const { text, hash } = layer("message", index, visibleText(message));
    cached = { text, hash };
    messageLayers.set(message, cached);
  }
  return { layer: "message", index, text: cached.text, hash: cached.hash };
}

function layer(name: LayerName, index: number, text: string): RequestLayer {
  return { layer: name, index, text, hash: createHash("sha1").update(text).digest("base64url") };
}

/** A message without ctxkit's metadata (id, origin, creation time), which no provider sends. */
export function visibleText(message: Message): string {
  const { meta: _meta, ...visible } = message;
  return JSON.stringify(visible);
}
