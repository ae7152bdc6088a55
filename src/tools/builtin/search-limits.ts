/**
 * Most directory entries one glob or grep call visits. A workspace opened at the wrong root (a home
 * directory) would otherwise make a search run for minutes; the result then says to narrow the path.
 */
export const maximumScannedEntries = 200_000;

export function scanStoppedNote(scanned: number): string {
  return `Stopped after scanning ${scanned} entries; results are incomplete. Pass a narrower path.`;
}

/** How the search root is written in front of walked relative paths so results are workspace-relative. */
export function joinShown(baseShown: string, relative: string): string {
  return baseShown === "." ? relative : `${baseShown}/${relative}`;
}
