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

  it("takes a UTF-8 byte-order mark and a 4-byte character ending the file as valid", () => {
    expect(findInvalidUtf8(bytes(0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0x0a))).toBeUndefined();
    expect(findInvalidUtf8(bytes(0x61, 0xf0, 0x9d, 0x84, 0x9e))).toBeUndefined();
    expect(findInvalidUtf8(bytes(0xf4, 0x8f, 0xbf, 0xbf))).toBeUndefined(); // U+10FFFF, the last code point
  });

  it("refuses the forms table 3-7 leaves out: overlongs of every length, above U+10FFFF, a UTF-16 byte-order mark", () => {
    expect(findInvalidUtf8(bytes(0x61, 0xc1, 0xbf))).toEqual({ byte: 1, line: 1 });
    expect(findInvalidUtf8(bytes(0xe0, 0x9f, 0xbf))).toEqual({ byte: 0, line: 1 });
    expect(findInvalidUtf8(bytes(0xf0, 0x8f, 0xbf, 0xbf))).toEqual({ byte: 0, line: 1 });
    expect(findInvalidUtf8(bytes(0xed, 0xbf, 0xbf))).toEqual({ byte: 0, line: 1 }); // U+DFFF, the last surrogate
    expect(findInvalidUtf8(bytes(0xf5, 0x80, 0x80, 0x80))).toEqual({ byte: 0, line: 1 });
    expect(findInvalidUtf8(bytes(0xff, 0xfe, 0x7b, 0x00))).toEqual({ byte: 0, line: 1 });
  });

  it("names the lead byte of a 4-byte character cut at the end of the file", () => {
    expect(findInvalidUtf8(bytes(0x0a, 0x61, 0xf0, 0x9d, 0x84))).toEqual({ byte: 2, line: 2 });
  });

  it("counts lines of a CRLF file as its readers do: one per \\n", () => {
    const text = Buffer.from("first\r\nsecond\r\n\r\nfourth \u00e9");
    const cut = Buffer.concat([text, bytes(0xc3)]);
    expect(findInvalidUtf8(cut)).toEqual({ byte: text.length, line: 4 });
    // A lone \r ends no line for the importers (they split at \n), so it does not here either.
    expect(findInvalidUtf8(Buffer.concat([Buffer.from("a\rb\r"), bytes(0xff)]))).toEqual({ byte: 4, line: 1 });
  });

  // The file is checked natively 64 KB at a time, each chunk ending at a character's first byte: the
  // bad byte is still the first one whichever way a character or a bad run straddles a chunk's end.
  it("finds the same byte past 64 KB, with characters and bad runs across the chunk boundary", () => {
    const chunk = 64 * 1024;
    for (let start = chunk - 4; start <= chunk + 1; start += 1) {
      const valid = Buffer.alloc(chunk * 2 + 10, 0x61);
      valid.set([0xf0, 0x9d, 0x84, 0x9e], start);
      valid[start - 10] = 0x0a;
      expect(findInvalidUtf8(valid)).toBeUndefined();
      const late = Buffer.from(valid);
      late[chunk + 900] = 0xff;
      expect(findInvalidUtf8(late)).toEqual({ byte: chunk + 900, line: 2 });
      const cut = Buffer.from(valid);
      cut[start + 3] = 0x61; // the character loses its last byte
      expect(findInvalidUtf8(cut)).toEqual({ byte: start, line: 2 });
      const strays = Buffer.from(valid);
      strays.fill(0x80, start, start + 5); // five continuation bytes, no lead
      expect(findInvalidUtf8(strays)).toEqual({ byte: start, line: 2 });
    }
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
