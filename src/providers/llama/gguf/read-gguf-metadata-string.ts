import { closeSync, openSync, readSync } from "node:fs";
import { CtxkitError } from "../../../types/errors.js";

// Byte sizes of GGUF scalar value types (ggml's docs/gguf.md, `gguf_metadata_value_type`).
const scalarSizes: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const stringType = 8;
const arrayType = 9;
// A real model's metadata (vocabulary, merges, template) is a few megabytes; a header claiming more is broken.
const maxHeaderBytes = 256 * 1024 * 1024;

/**
 * Reads one string value from a GGUF file's metadata (e.g. `tokenizer.chat_template`), synchronously
 * and without loading the tensors, so a provider factory can check its model file before any engine
 * starts. Returns undefined when the key is absent; throws `config_invalid` when the file is not GGUF.
 */
export function readGgufMetadataString(path: string, key: string): string | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(path, "r");
  } catch (error) {
    throw new CtxkitError("option_invalid", `Cannot open the model file ${path} (${(error as Error).message}). Pass the path of a .gguf file.`, { cause: error });
  }
  try {
    const reader = new SequentialReader(descriptor);
    if (reader.bytes(4).toString("latin1") !== "GGUF") throw notGguf(path, "it does not start with GGUF");
    const version = reader.uint32();
    if (version < 2) throw notGguf(path, `version ${version} is older than 2`);
    reader.uint64();
    const entries = reader.uint64();
    for (let entry = 0; entry < entries; entry += 1) {
      const entryKey = reader.string();
      const type = reader.uint32();
      if (entryKey === key && type === stringType) return reader.string();
      reader.skipValue(type);
    }
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}

function notGguf(path: string, reason: string): CtxkitError {
  return new CtxkitError("option_invalid", `${path} is not a GGUF model file (${reason}). Pass the path of a .gguf file.`);
}

class SequentialReader {
  private buffer = Buffer.alloc(0);
  private position = 0;
  private fileOffset = 0;

  constructor(private readonly descriptor: number) {}

  bytes(length: number): Buffer {
    this.ensure(length);
    const slice = this.buffer.subarray(this.position, this.position + length);
    this.position += length;
    return slice;
  }
  uint32(): number {
    return this.bytes(4).readUInt32LE(0);
  }
  uint64(): number {
    return Number(this.bytes(8).readBigUInt64LE(0));
  }
  string(): string {
    return this.bytes(this.uint64()).toString("utf8");
  }
  skipValue(type: number): void {
    if (type === stringType) return void this.bytes(this.uint64());
    if (type === arrayType) {
      const itemType = this.uint32();
      const count = this.uint64();
      for (let item = 0; item < count; item += 1) this.skipValue(itemType);
      return;
    }
    const size = scalarSizes[type];
    if (size === undefined) throw new CtxkitError("option_invalid", `The model file has an unknown GGUF value type ${type}. Pass a valid .gguf file.`);
    this.bytes(size);
  }
  private ensure(length: number): void {
    if (this.position + length <= this.buffer.length) return;
    if (this.fileOffset + length > maxHeaderBytes) throw new CtxkitError("option_invalid", "The model file's GGUF header is larger than 256 MB or truncated. Pass a valid .gguf file.");
    const rest = this.buffer.subarray(this.position);
    const chunk = Buffer.alloc(Math.max(length - rest.length, 1 << 20));
    const read = readSync(this.descriptor, chunk, 0, chunk.length, this.fileOffset);
    this.fileOffset += read;
    this.buffer = Buffer.concat([rest, chunk.subarray(0, read)]);
    this.position = 0;
    if (this.buffer.length < length) throw new CtxkitError("option_invalid", "The model file ends inside its GGUF header. Pass a complete .gguf file.");
  }
}
