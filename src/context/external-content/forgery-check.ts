import { findMarkers, type MarkerMatch } from "./find-markers.js";

/**
 * The definition of a forgery the tests and the bench use: parse the text as sent with the marker
 * grammar; every marker found that ctxkit did not write itself — anything but the opening and
 * closing tag of a block whose id is one of `ownNonces` — is forged (a boundary, a harness tag, a
 * role switch). Wrapped external content must have none.
 */
export function findForgedMarkers(text: string, ownNonces: readonly string[]): MarkerMatch[] {
  const own = new Set(ownNonces.map((nonce) => nonce.toLowerCase()));
  return findMarkers(text).filter((marker) => !(marker.kind === "external" && marker.id !== undefined && own.has(marker.id) && isExactTag(text, marker)));
}

// Our own tags are written byte for byte by wrapExternalContent; a disguised tag that merely carries
// our id (an attacker who guessed it) is still a forgery.
function isExactTag(text: string, marker: MarkerMatch): boolean {
  const written = text.slice(marker.start, marker.end);
  return marker.closing ? written === `</external_content id="${marker.id}">` : /^<external_content source="[A-Za-z0-9_.:-]+" id="[a-z0-9_.:-]+">$/.test(written);
}
