import { createHash } from "node:crypto";
import type { PyValue } from "./python/py-value.js";
import { writePythonHashableRepr } from "./python/python-repr.js";

/** τ-bench's `consistent_hash(to_hashable(data))`: SHA-256 of the Python repr of the sorted tuples. */
export function tauDataHash(data: PyValue): string {
  const hash = createHash("sha256");
  // Pieces are small; handing them to the hash in ~64 KB batches is several times faster.
  let buffer = "";
  writePythonHashableRepr(data, (piece) => {
    buffer += piece;
    if (buffer.length > 65536) {
      hash.update(buffer, "utf8");
      buffer = "";
    }
  });
  hash.update(buffer, "utf8");
  return hash.digest("hex");
}
