import { commonPrefixLength } from "../../tokens/common-prefix-tokens.js";
import type { LayerName, RequestLayer } from "./request-layers.js";

export interface LayerDifference {
  layer: LayerName;
  index: number;
  /** Position of the layer in the previous request's layer list. */
  position: number;
  /** Offset of the first differing character within the layer's text. */
  offsetInLayer: number;
  /** Offset in UTF-8 bytes of the first difference in the whole body (layer texts concatenated). */
  bodyOffset: number;
  previousText: string;
  /** undefined when the layer was removed (e.g. history deleted by a sliding window). */
  nextText: string | undefined;
}

/**
 * Finds where `next` stops extending the previous body (the previous request without its tail).
 * Returns undefined when every previous body layer reappears unchanged, in order, at the start of
 * `next` — the prefix invariant. Pure.
 */
export function findLayerDifference(previousBody: readonly RequestLayer[], next: readonly RequestLayer[]): LayerDifference | undefined {
  for (const [position, previous] of previousBody.entries()) {
    const candidate = next[position];
    if (candidate === undefined || candidate.hash !== previous.hash || candidate.layer !== previous.layer) {
      const nextText = candidate?.text;
      const offsetInLayer = nextText === undefined ? 0 : commonPrefixLength(previous.text, nextText);
      return {
        layer: previous.layer,
        index: previous.index,
        position,
        offsetInLayer,
        // Byte offsets are computed only here, on a break: summing every layer on every call would
        // make each check O(context).
        bodyOffset: previousBody.slice(0, position).reduce((sum, layer) => sum + utf8Length(layer.text), 0) + utf8Length(previous.text.slice(0, offsetInLayer)),
        previousText: previous.text,
        nextText,
      };
    }
  }
  return undefined;
}

const encoder = new TextEncoder();
const utf8Length = (text: string): number => encoder.encode(text).length;

