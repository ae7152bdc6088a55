import { describe, expect, it } from "vitest";
import { contentKindOf, contradictsTextHeader, sniffContentKind } from "./content-kind.js";

describe("content kinds", () => {
  it("reads the kind a Content-Type header announces", () => {
    expect(contentKindOf("text/html; charset=utf-8")).toBe("html");
    expect(contentKindOf("application/xhtml+xml")).toBe("html");
    expect(contentKindOf("application/json")).toBe("json");
    expect(contentKindOf("application/ld+json")).toBe("json");
    expect(contentKindOf("text/markdown")).toBe("text");
    expect(contentKindOf("application/rss+xml")).toBe("text");
    expect(contentKindOf("image/png")).toBe("binary");
    expect(contentKindOf("application/pdf")).toBe("binary");
    expect(contentKindOf(undefined)).toBeUndefined();
    expect(contentKindOf("application/octet-stream")).toBeUndefined();
  });

  it("guesses from the bytes when the header says nothing useful", () => {
    expect(sniffContentKind(Buffer.from("%PDF-1.7\n%âãÏÓ"))).toBe("binary");
    expect(sniffContentKind(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14]))).toBe("binary");
    expect(sniffContentKind(Buffer.from("  <!DOCTYPE html><html>"))).toBe("html");
    expect(sniffContentKind(Buffer.from('{"a": 1}'))).toBe("json");
    expect(sniffContentKind(Buffer.from("just words"))).toBe("text");
  });

  it("finds a binary body behind a text header, but not UTF-16 text's NUL bytes", () => {
    expect(contradictsTextHeader(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), "text/html")).toBe(true);
    expect(contradictsTextHeader(Buffer.from("a\u0000b"), "text/plain")).toBe(true);
    expect(contradictsTextHeader(Buffer.from("hello", "utf16le"), "text/plain; charset=UTF-16LE")).toBe(false);
    expect(contradictsTextHeader(Buffer.from("<p>PK\u0003\u0004 in the middle</p>"), "text/html")).toBe(false);
    // A UTF-16 page known by its byte-order mark alone (decodeText reads it so), under a header without a charset or a wrong one.
    const utf16 = (text: string, bigEndian: boolean) => {
      const little = Buffer.from(`\uFEFF${text}`, "utf16le");
      return bigEndian ? Buffer.from(little).swap16() : little;
    };
    expect(contradictsTextHeader(utf16("<p>Hello</p>", false), "text/html")).toBe(false);
    expect(contradictsTextHeader(utf16("<p>Hello</p>", true), "text/html; charset=utf-8")).toBe(false);
  });
});
