import type { FileHandle } from "node:fs/promises";

/** How much of a file's start is checked for NUL bytes; git uses the same heuristic and size. */
const binarySniffBytes = 8000;

/** Whether bytes look like a binary file: text files in any common encoding but UTF-16 have no NUL byte. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, binarySniffBytes).includes(0);
}

/** Reads only the start of an open file to decide whether it is binary, so huge files are not loaded for it. */
export async function isBinaryFile(handle: FileHandle): Promise<boolean> {
  const buffer = Buffer.alloc(binarySniffBytes);
  const { bytesRead } = await handle.read(buffer, 0, binarySniffBytes, 0);
  return looksBinary(buffer.subarray(0, bytesRead));
}

/** "512 B", "2.3 KB", "1.5 MB": short sizes for listings and notes. */
export function formatByteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unitIndex = 0;
  while (value >= 1024 && unitIndex < units.length - 1) {
    value /= 1024;
    unitIndex += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unitIndex]}`;
}
