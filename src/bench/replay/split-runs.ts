import { createHash } from "node:crypto";

/** The two halves of a corpus: tune on one, only measure on the other. */
export const replayHalves = ["tune", "measure"] as const;
export type ReplayHalf = (typeof replayHalves)[number];

/**
 * Which half a run belongs to, from its id alone: the parity of the first byte of its SHA-256. A
 * run keeps its half when runs are added or removed, and nobody chooses which runs are held out.
 */
export function halfOf(runId: string): ReplayHalf {
  const firstByte = createHash("sha256").update(runId).digest()[0]!;
  return firstByte % 2 === 0 ? "tune" : "measure";
}
