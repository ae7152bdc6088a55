import { isUtf8 } from "node:buffer";
import { describe, expect, it } from "vitest";
import { findInvalidUtf8 } from "./find-invalid-utf8.js";

const bytes = (...values: number[]) => Uint8Array.from(values);

describe("findInvalidUtf8", () => {
  it("finds nothing in valid text, multi-byte characters included", () => {
    expect(findInvalidUtf8(new TextEncoder().encode("héllo\n€ 𝄞 文字\n"))).toBeUndefined();
  });

  it("names the first bad byte and its line: a stray continuation, an overlong form, a surrogate, a cut sequence", () => {
    expect(findInvalidUtf8(bytes(0x61, 0x0a, 0x62, 0x80, 0x63))).toEqual({ byte: 3, line: 2 });
    expect(findInvalidUtf8(bytes(0xc0, 0x80))).toEqual({ byte: 0, line: 1 });
    expect(findInvalidUtf8(bytes(0x0a, 0x0a, 0xed, 0xa0, 0x80))).toEqual({ byte: 2, line: 3 });
    expect(findInvalidUtf8(bytes(0x61, 0xe2, 0x82))).toEqual({ byte: 1, line: 1 });
    expect(findInvalidUtf8(bytes(0xf4, 0x90, 0x80, 0x80))).toEqual({ byte: 0, line: 1 });
  });

  it("agrees with Node's decoder: valid before the offset, a replacement character at it", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % 256;
    for (let sample = 0; sample < 2000; sample += 1) {
      // Mostly text, with a few high bytes so that valid and invalid sequences both occur.
      const buffer = Buffer.from(Array.from({ length: 12 }, () => (random() < 200 ? 0x61 : random() | 0x80)));
      const found = findInvalidUtf8(buffer);
      expect(found === undefined).toBe(isUtf8(buffer));
      if (found === undefined) continue;
      expect(isUtf8(buffer.subarray(0, found.byte))).toBe(true);
      expect(buffer.subarray(found.byte).toString("utf8").startsWith("\uFFFD")).toBe(true);
    }
  });
});
