/**
 * Which items fit `budget` when the best kinds are placed first: items of rank 0 in order, then
 * rank 1 in order, and so on; an item too big for what is left is skipped and smaller ones after it
 * still go in. The positions kept, so the caller keeps the items' own order. Fact lines
 * (`extractFactLines`) and condensing (`condenseArchive`) both choose lines this way.
 */
export function keepByRank<Item>(items: readonly Item[], rankOf: (item: Item) => number, costOf: (item: Item) => number, budget: number): Set<number> {
  const ranks = [...new Set(items.map(rankOf))].sort((left, right) => left - right);
  const kept = new Set<number>();
  let spent = 0;
  for (const rank of ranks) {
    for (const [position, item] of items.entries()) {
      if (rankOf(item) !== rank || spent + costOf(item) > budget) continue;
      kept.add(position);
      spent += costOf(item);
    }
  }
  return kept;
}
