import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { looksBinary } from "./binary-output.js";

describe("looksBinary", () => {
  it("takes random bytes and an executable, decoded as UTF-8, for binary", () => {
    expect(looksBinary(randomBytes(30_000).toString("utf8"))).toBe(true);
    expect(looksBinary(readFileSync(process.execPath).subarray(0, 30_000).toString("utf8"))).toBe(true);
  });

  it("keeps text, coloured text, NUL-separated names and a few stray bytes as text", () => {
    expect(looksBinary("exit code: 0\nsrc/a.ts\nsrc/b.ts\n")).toBe(false);
    expect(looksBinary("\u001b[31merror\u001b[0m: failed\r\n\tat line 3\f")).toBe(false);
    expect(looksBinary("src/a.ts\u0000src/b.ts\u0000src/c.ts\u0000")).toBe(false);
    expect(looksBinary(`${"|\b/\b-\b\\\b".repeat(2_000)}Error: build failed\n`)).toBe(false);
    expect(looksBinary(`${"\r[=====>     ] 50%".repeat(500)}\nnpm ERR! code E404\n`)).toBe(false);
    expect(looksBinary(`caf\ufffd au lait, na\ufffdve: a Latin-1 line among ${"plain text ".repeat(10)}`)).toBe(false);
    expect(looksBinary("")).toBe(false);
  });
});
