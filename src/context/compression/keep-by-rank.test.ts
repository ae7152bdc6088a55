import { describe, expect, it } from "vitest";
import { keepByRank } from "./keep-by-rank.js";

describe("keepByRank", () => {
  it("fills the budget best rank first, skipping what no longer fits, and returns positions", () => {
    const items = [{ size: 4, rank: 1 }, { size: 5, rank: 0 }, { size: 3, rank: 1 }, { size: 1, rank: 2 }];
    expect([...keepByRank(items, (item) => item.rank, (item) => item.size, 8)].sort()).toEqual([1, 2]);
    expect([...keepByRank(items, (item) => item.rank, (item) => item.size, 9)].sort()).toEqual([0, 1]);
    expect([...keepByRank(items, (item) => item.rank, (item) => item.size, 100)].sort()).toEqual([0, 1, 2, 3]);
  });
});
