import { describe, expect, it } from "vitest";
import { HeadTailOutput } from "./head-tail-output.js";

// Issue 30, item 7: a 50 MB result must be cut while it streams in, not gathered and cut at the end.
// Structural, not timed: what is held between chunks never exceeds the budget.
describe("HeadTailOutput", () => {
  it("holds at most its budget between chunks while 50 MB stream through", () => {
    const budget = 30 * 1024;
    const output = new HeadTailOutput(budget);
    const chunk = Buffer.alloc(64 * 1024, "a");
    let most = 0;
    for (let sent = 0; sent < 50 * 1024 * 1024; sent += chunk.length) {
      output.append(chunk);
      most = Math.max(most, output.retainedBytes);
    }
    expect(output.totalBytes).toBe(50 * 1024 * 1024);
    expect(most).toBeLessThanOrEqual(budget);
    expect(output.toString()).toMatch(/^a+\n\[… 52398080 bytes elided from the middle of the output …\]\na+$/);
  });
});

// The outside battery of issue 30 (item 7): `head -c 50M /dev/urandom` gave a 55 KB result under a
// 30 KB cap, each byte that is not UTF-8 shown as U+FFFD (three bytes).
describe("HeadTailOutput with binary output", () => {
  const notUtf8 = (length: number) => Buffer.alloc(length, 0xff);

  it("keeps the text of output over the budget within the budget", () => {
    const budget = 30 * 1024;
    const output = new HeadTailOutput(budget);
    for (let sent = 0; sent < 1024 * 1024; sent += 64 * 1024) output.append(notUtf8(64 * 1024));
    const text = output.toString();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(budget + 80);
    const elided = Number(/\[… (\d+) bytes elided/.exec(text)?.[1]);
    const shownCharacters = text.replace(/\n\[…[^\]]*\]\n/, "").length;
    expect(elided + shownCharacters).toBe(1024 * 1024);
  });

  it("cuts binary output within the budget in bytes whose text is over it", () => {
    const output = new HeadTailOutput(3000);
    output.append(notUtf8(3000));
    const text = output.toString();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(3000 + 80);
    expect(text).toContain("bytes elided from the middle of the output");
  });

  it("still shows text within the budget whole", () => {
    const output = new HeadTailOutput(3000);
    output.append(Buffer.from("héllo wörld\n".repeat(100)));
    expect(output.toString()).toBe("héllo wörld\n".repeat(100));
  });
});

// Review of the fix above: the bytes of a character cut at the head's end were neither shown nor
// counted, so what was shown and what was said elided fell short of the output by up to three bytes.
describe("HeadTailOutput's elided count", () => {
  const shownAndElided = (text: string): number => {
    const marker = /\n\[… (\d+) bytes elided from the middle of the output …\]\n/.exec(text)!;
    return Buffer.byteLength(text) - Buffer.byteLength(marker[0]) + Number(marker[1]);
  };

  it("adds up to the output when a character is cut at either edge", () => {
    for (const before of [12, 13, 14]) {
      for (const output of [`${"a".repeat(before)}€${"b".repeat(100)}`, `${"b".repeat(100)}€${"a".repeat(before)}`, `${"a".repeat(before)}😀${"b".repeat(100)}😀${"a".repeat(before)}`]) {
        const headTail = new HeadTailOutput(30);
        headTail.append(Buffer.from(output));
        expect(shownAndElided(headTail.toString())).toBe(Buffer.byteLength(output));
      }
    }
  });
});
