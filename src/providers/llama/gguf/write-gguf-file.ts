import { open, rename, rm } from "node:fs/promises";

/** A metadata value with its GGUF type. Arrays hold one item type. */
export type GgufValue =
  | { type: "uint32"; value: number }
  | { type: "int32"; value: number }
  | { type: "float32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "string_array"; value: readonly string[] }
  | { type: "int32_array"; value: readonly number[] };

/** One tensor: `dimensions` innermost first (ggml's `ne` order), data already encoded. */
export interface GgufTensor {
  name: string;
  dimensions: readonly number[];
  type: "F32" | "F16";
  data: Uint8Array;
}

export interface GgufFileContents {
  metadata: ReadonlyArray<readonly [key: string, value: GgufValue]>;
  tensors: readonly GgufTensor[];
}

// Numbers from ggml's docs/gguf.md: `gguf_metadata_value_type` and `ggml_type`.
const valueTypeIds = { uint32: 4, int32: 5, float32: 6, bool: 7, string: 8, array: 9 } as const;
const tensorTypeIds = { F32: 0, F16: 1 } as const;
const alignment = 32;
const ggufVersion = 3;

/**
 * Writes a GGUF v3 file (ggml's docs/gguf.md): header, metadata key/values, tensor infos, then the
 * tensor data, each tensor aligned to 32 bytes. Written to a temporary name and renamed, so a
 * reader (a parallel test) never sees half a file.
 */
export async function writeGgufFile(path: string, contents: GgufFileContents): Promise<void> {
  const header = new ByteWriter();
  header.bytes(Buffer.from("GGUF", "ascii"));
  header.uint32(ggufVersion);
  header.uint64(contents.tensors.length);
  header.uint64(contents.metadata.length);
  for (const [key, value] of contents.metadata) {
    header.string(key);
    writeValue(header, value);
  }
  let offset = 0;
  for (const tensor of contents.tensors) {
    header.string(tensor.name);
    header.uint32(tensor.dimensions.length);
    for (const dimension of tensor.dimensions) header.uint64(dimension);
    header.uint32(tensorTypeIds[tensor.type]);
    header.uint64(offset);
    offset = alignUp(offset + tensor.data.byteLength);
  }
  header.bytes(new Uint8Array(alignUp(header.length) - header.length));

  const temporaryPath = `${path}.${process.pid}.${Date.now()}.partial`;
  const file = await open(temporaryPath, "w");
  try {
    await file.write(header.toBuffer());
    for (const tensor of contents.tensors) {
      await file.write(tensor.data);
      const padding = alignUp(tensor.data.byteLength) - tensor.data.byteLength;
      if (padding > 0) await file.write(new Uint8Array(padding));
    }
  } catch (error) {
    await file.close();
    await rm(temporaryPath, { force: true });
    throw error;
  }
  await file.close();
  await rename(temporaryPath, path);
}

function writeValue(writer: ByteWriter, value: GgufValue): void {
  switch (value.type) {
    case "uint32":
      writer.uint32(valueTypeIds.uint32);
      return writer.uint32(value.value);
    case "int32":
      writer.uint32(valueTypeIds.int32);
      return writer.int32(value.value);
    case "float32":
      writer.uint32(valueTypeIds.float32);
      return writer.float32(value.value);
    case "bool":
      writer.uint32(valueTypeIds.bool);
      return writer.bytes(Uint8Array.of(value.value ? 1 : 0));
    case "string":
      writer.uint32(valueTypeIds.string);
      return writer.string(value.value);
    case "string_array":
      writer.uint32(valueTypeIds.array);
      writer.uint32(valueTypeIds.string);
      writer.uint64(value.value.length);
      for (const item of value.value) writer.string(item);
      return;
    case "int32_array":
      writer.uint32(valueTypeIds.array);
      writer.uint32(valueTypeIds.int32);
      writer.uint64(value.value.length);
      for (const item of value.value) writer.int32(item);
      return;
  }
}

function alignUp(offset: number): number {
  return Math.ceil(offset / alignment) * alignment;
}

/** A growable little-endian buffer for the header (a tokenizer makes it a few megabytes). */
class ByteWriter {
  private buffer = Buffer.alloc(1 << 20);
  length = 0;

  bytes(data: Uint8Array): void {
    this.reserve(data.byteLength);
    this.buffer.set(data, this.length);
    this.length += data.byteLength;
  }
  uint32(value: number): void {
    this.reserve(4);
    this.length = this.buffer.writeUInt32LE(value, this.length);
  }
  int32(value: number): void {
    this.reserve(4);
    this.length = this.buffer.writeInt32LE(value, this.length);
  }
  float32(value: number): void {
    this.reserve(4);
    this.length = this.buffer.writeFloatLE(value, this.length);
  }
  uint64(value: number): void {
    this.reserve(8);
    this.length = this.buffer.writeBigUInt64LE(BigInt(value), this.length);
  }
  /** gguf_string_t: a uint64 byte length and UTF-8 bytes, no terminator. */
  string(value: string): void {
    const encoded = Buffer.from(value, "utf8");
    this.uint64(encoded.byteLength);
    this.bytes(encoded);
  }
  toBuffer(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
  private reserve(size: number): void {
    if (this.length + size <= this.buffer.length) return;
    const grown = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + size));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}
