import type { Message, UntrustedSource } from "../../types/index.js";

export interface ContextTaintOptions {
  /** Whether a tool's results count as external whatever their tags say (its `source`, the CLI's `externalTools`). */
  isExternalTool?: (toolName: string) => boolean;
}

/**
 * The untrusted sources of one message, read from its structured metadata only — never from its
 * text, which a model or a tool could also have written:
 * - a tool result tagged by the source tags (`meta.external`): `external` from outside, `workspace`
 *   from a workspace the user has not trusted (a trusted workspace's results are not tagged);
 * - an untagged result of an external tool (the source tags are off);
 * - a derived message (summary, archive, stub, recall, note, skill body) with `meta.provenance`:
 *   the union of what it was derived from.
 */
export function untrustedSourcesOf(message: Message, options: ContextTaintOptions = {}): UntrustedSource[] {
  const sources: UntrustedSource[] = [...(message.meta.provenance?.untrusted ?? [])];
  if (message.role === "tool") {
    const external = message.meta.external;
    if (external) sources.push({ source: external.source, trust: external.trust ?? "external" });
    else if (options.isExternalTool?.(message.toolName) === true) sources.push({ source: message.toolName, trust: "external" });
  }
  return sources;
}

/** The union of untrusted sources of some messages, one entry per source and trust: a derived message's provenance. */
export function unionOfSources(messages: readonly Message[], options: ContextTaintOptions = {}): UntrustedSource[] {
  const seen = new Map<string, UntrustedSource>();
  for (const message of messages) {
    for (const source of untrustedSourcesOf(message, options)) seen.set(`${source.trust}\u0000${source.source}`, { source: source.source, trust: source.trust });
  }
  return [...seen.values()];
}
