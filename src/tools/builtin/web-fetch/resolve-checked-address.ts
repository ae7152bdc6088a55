import { isIP } from "node:net";
import { ToolError } from "../../tool.js";
import { findBlockedAddressReason, type AddressPolicy } from "./blocked-address.js";
import type { CheckedUrl } from "./check-fetch-url.js";
import type { HostResolver, ResolvedAddress } from "./host-resolver.js";
import { nodeErrorCode } from "../../../types/node-error-code.js";

/**
 * The address to connect to for `target`, after the resolver answered and every address it gave
 * passed the check (one bad address refuses the host: which one a client picks is not ours to know).
 * The caller connects to exactly this address; nothing resolves the name again.
 */
export async function resolveCheckedAddress(
  target: CheckedUrl,
  resolver: HostResolver,
  policy: AddressPolicy,
  signal: AbortSignal,
): Promise<ResolvedAddress> {
  const { host } = target;
  const literalFamily = isIP(host);
  if (literalFamily !== 0) {
    refuseIfBlocked(host, host, policy);
    return { address: host, family: literalFamily === 6 ? 6 : 4 };
  }
  if (target.isLoopbackName && policy.allowLoopback !== true) {
    throw new ToolError("permission", `web_fetch refuses ${host}: it names this machine (loopback), and fetching local pages is not enabled.`);
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolver(host, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const code = nodeErrorCode(error);
    throw new ToolError("not_found", `Could not resolve the host ${host}${code ? ` (${code})` : ""}. Check the URL's spelling.`);
  }
  if (addresses.length === 0) throw new ToolError("not_found", `The host ${host} has no addresses.`);
  for (const { address } of addresses) refuseIfBlocked(host, address, policy);
  if (target.isLoopbackName && addresses.some(({ address }) => findBlockedAddressReason(address, {}) === undefined)) {
    throw new ToolError("permission", `web_fetch refuses ${host}: a loopback name resolved to a public address.`);
  }
  return addresses[0]!;
}

function refuseIfBlocked(host: string, address: string, policy: AddressPolicy): void {
  const reason = findBlockedAddressReason(address, policy);
  if (reason === undefined) return;
  const shown = host === address ? address : `${host} (${address})`;
  const hint = reason.startsWith("a loopback") ? " Fetching pages on this machine is off unless the user turns it on." : "";
  throw new ToolError("permission", `web_fetch refuses ${shown}: ${reason}, not the public web.${hint}`);
}
