import { createLazyRequire } from "../../../types/lazy-require.js";

// node:dns/promises is required by the first fetch, not when the tools are created (the CLI's start-up).
const requireFromHere = createLazyRequire(import.meta.url);
const dns = () => requireFromHere("node:dns/promises") as typeof import("node:dns/promises");

/** An address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a host name to its addresses. web_fetch calls it once per hop, checks every address it
 * returns and connects to the checked one, so an answer that changes between lookups (DNS
 * rebinding) cannot move a connection to another host. Tests pass a stub.
 */
export type HostResolver = (hostname: string, signal: AbortSignal) => Promise<ResolvedAddress[]>;

/** The system resolver (`getaddrinfo`, so /etc/hosts counts), every address in its order. */
export const systemHostResolver: HostResolver = async (hostname) => {
  const addresses = await dns().lookup(hostname, { all: true, verbatim: true });
  return addresses.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};
