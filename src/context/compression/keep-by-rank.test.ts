import { describe, expect, it } from "vitest";
import { keepByRank } from "./keep-by-rank.js";

describe("keepByRank", () => {
  it("fills the budget best rank first, skipping what no longer fits, and returns positions", () => {
    const items = [{ size: 4, rank: 1 }, { size: 5, rank: 0 }, { size: 3, rank: 1 }, { size: 1, rank: 2 }];
    expect([...keepByRank(items, (item) => item.rank, (item) => item.size, 8)].sort()).toEqual([1, 2]);
    expect([...keepByRank(items, (item) => item.rank, (item) => item.size, 9)].sort()).toEqual([0, 1]);
    expect([...keepByRank(items, (item) => item.rank, (item) => item.size, 100)].sort()).toEqual([0, 1, 2, 3]);
  });

  it("tells the cost what is kept so far, so the first item of a group can pay for the group", () => {
    // Two groups; the first kept item of a group pays 10 more (a turn's gist line).
    const items = [{ group: "a", rank: 0 }, { group: "b", rank: 0 }, { group: "a", rank: 1 }, { group: "b", rank: 1 }];
    const costOf = (item: { group: string }, kept: ReadonlySet<number>) => 1 + ([...kept].some((position) => items[position]!.group === item.group) ? 0 : 10);
    expect([...keepByRank(items, (item) => item.rank, costOf, 12)].sort()).toEqual([0, 2]);
    expect([...keepByRank(items, (item) => item.rank, costOf, 24)].sort()).toEqual([0, 1, 2, 3]);
  });
});
