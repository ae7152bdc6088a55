import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { ResolvedAddress } from "./host-resolver.js";

const requestHeaders = {
  "user-agent": "ctxkit-web-fetch/0.1",
  accept: "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.1",
  "accept-encoding": "gzip, deflate, br",
};

/**
 * Sends one GET for `url` to `pinned`, the address that was already checked: the socket's lookup
 * answers with it instead of asking DNS again, while the Host header, TLS server name and
 * certificate check still use the URL's host name. Resolves with the response once its headers
 * arrived; the body is the caller's to read or destroy. Redirects are not followed here.
 */
export function requestPinned(url: URL, pinned: ResolvedAddress, signal: AbortSignal): Promise<IncomingMessage> {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all === true) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = send(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port === "" ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: "GET",
        headers: requestHeaders,
        lookup,
        // One connection per request: a pooled socket could have been opened to another address.
        agent: false,
        signal,
      },
      resolve,
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}
