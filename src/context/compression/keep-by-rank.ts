/**
 * Which items fit `budget` when the best kinds are placed first: items of rank 0 in order, then
 * rank 1 in order, and so on; an item too big for what is left is skipped and smaller ones after it
 * still go in. The positions kept, so the caller keeps the items' own order. Fact lines
 * (`extractFactLines`), condensing (`condenseArchive`) and the lines kept beside a summary
 * (`summaryFactLines`) all choose lines this way. `costOf` is told what is kept so far: an item
 * may cost more when it is the first of its group (a line that brings its turn's gist line).
 */
export function keepByRank<Item>(items: readonly Item[], rankOf: (item: Item) => number, costOf: (item: Item, kept: ReadonlySet<number>) => number, budget: number): Set<number> {
  const ranks = [...new Set(items.map(rankOf))].sort((left, right) => left - right);
  const kept = new Set<number>();
  let spent = 0;
  for (const rank of ranks) {
    for (const [position, item] of items.entries()) {
      if (rankOf(item) !== rank) continue;
      const cost = costOf(item, kept);
      if (spent + cost > budget) continue;
      kept.add(position);
      spent += cost;
    }
  }
  return kept;
}
