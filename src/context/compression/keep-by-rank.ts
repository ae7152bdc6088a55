/**
 * Which items fit `budget` when the best kinds are placed first: items of rank 0 in order, then
 * rank 1 in order, and so on; an item too big for what is left is skipped and smaller ones after it
 * still go in. The positions kept, so the caller keeps the items' own order. Fact lines
 * (`extractFactLines`), condensing (`condenseArchive`) and the lines kept beside a summary
 * (`summaryFactLines`) all choose lines this way. `costOf` is told what is kept so far, and
 * `onKeep` of each item as it is kept: an item may cost more when it is the first of its group (a
 * line that brings its turn's gist line, or its result's tags), and `onKeep` marks the group paid.
 */
export function keepByRank<Item>(
  items: readonly Item[],
  rankOf: (item: Item) => number,
  costOf: (item: Item, kept: ReadonlySet<number>) => number,
  budget: number,
  onKeep?: (item: Item) => void,
): Set<number> {
  // One sort by rank (then position), not one pass over every item per rank: a summary's candidates
  // have three ranks a turn, so a thousand turns of 40 lines made that 120 million visits.
  const order = items.map((item, position) => ({ rank: rankOf(item), position })).sort((left, right) => left.rank - right.rank || left.position - right.position);
  const kept = new Set<number>();
  let spent = 0;
  for (const { position } of order) {
    const cost = costOf(items[position]!, kept);
    if (spent + cost > budget) continue;
    kept.add(position);
    spent += cost;
    onKeep?.(items[position]!);
  }
  return kept;
}
