import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getQwen3ChatTemplate } from "../../../tokens/qwen3-chat-template.js";
import { createTinyQwen3Gguf } from "./create-tiny-qwen3-gguf.js";
import { readGgufMetadataString } from "./read-gguf-metadata-string.js";

const directory = await mkdtemp(join(tmpdir(), "ctxkit-gguf-"));
afterAll(() => rm(directory, { recursive: true, force: true }));

describe("createTinyQwen3Gguf", () => {
  it("writes a GGUF whose metadata carries Qwen3's real chat template, and reuses the cached file", async () => {
    const path = await createTinyQwen3Gguf({ directory, embeddingLength: 32, heads: 2, keyValueHeads: 1, feedForwardLength: 32, layers: 1 });
    expect(readGgufMetadataString(path, "tokenizer.chat_template")).toBe(getQwen3ChatTemplate());
    expect(readGgufMetadataString(path, "general.architecture")).toBe("qwen3");
    expect(readGgufMetadataString(path, "no.such.key")).toBeUndefined();
    const before = await stat(path);
    expect(await createTinyQwen3Gguf({ directory, embeddingLength: 32, heads: 2, keyValueHeads: 1, feedForwardLength: 32, layers: 1 })).toBe(path);
    expect((await stat(path)).mtimeMs).toBe(before.mtimeMs);
  }, 60_000);

  it("refuses a file that is not GGUF with advice", async () => {
    const path = join(directory, "not-a-model.gguf");
    await writeFile(path, "hello");
    expect(() => readGgufMetadataString(path, "x")).toThrow(/not a GGUF model file/);
    expect(() => readGgufMetadataString(join(directory, "missing.gguf"), "x")).toThrow(/Pass the path of a \.gguf file/);
  });
});
