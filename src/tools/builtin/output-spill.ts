import { createWriteStream, type WriteStream } from "node:fs";
import { join } from "node:path";
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from "../../types/private-file-modes.js";
import { makeDirectoryTreeSync } from "../../types/make-directory-tree.js";

/**
 * The whole output of a command that overflowed its budget, streamed to a file as it arrives (up
 * to `maxBytes`), so the model can read the part that was cut from its result. Memory stays
 * bounded: `write` returns false when the file lags behind, and the caller pauses its source
 * until `onDrain`.
 */
export class OutputSpill {
  readonly path: string;
  private stream: WriteStream | undefined;
  private written = 0;
  private failure: string | undefined;

  constructor(
    directory: string,
    name: string,
    private readonly maxBytes: number,
  ) {
    this.path = join(directory, `${name.replace(/[^\w-]/g, "_").slice(0, 64)}-${Date.now().toString(36)}.log`);
  }

  get started(): boolean {
    return this.stream !== undefined;
  }

  /** Opens the file (created, never overwritten) and writes what came before the overflow. */
  start(before: Buffer): void {
    try {
      makeDirectoryTreeSync(join(this.path, ".."), PRIVATE_DIRECTORY_MODE);
    } catch (error) {
      this.failure = (error as Error).message;
    }
    this.stream = createWriteStream(this.path, { flags: "wx", mode: PRIVATE_FILE_MODE });
    this.stream.on("error", (error) => (this.failure ??= error.message));
    this.write(before);
  }

  /** False when the file is behind: pause the source until `onDrain` fires. */
  write(chunk: Buffer): boolean {
    const room = this.maxBytes - this.written;
    if (this.stream === undefined || this.failure !== undefined || room <= 0) return true;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.written += part.length;
    return this.stream.write(part);
  }

  onDrain(listener: () => void): void {
    this.stream?.once("drain", listener);
  }

  async close(): Promise<void> {
    const stream = this.stream;
    if (stream === undefined || stream.closed) return;
    await new Promise<void>((resolve) => stream.end(() => resolve()));
  }

  /** The line the result ends with: where the whole output is and how to read a part of it. */
  describe(totalBytes: number): string | undefined {
    if (this.stream === undefined) return undefined;
    if (this.failure !== undefined) return `[the whole output could not be saved to ${this.path}: ${this.failure}]`;
    const saved = this.written < totalBytes ? `its first ${this.written} of ${totalBytes} bytes are` : `all ${totalBytes} bytes are`;
    return `[the output was cut to fit; ${saved} saved in ${this.path} — read a part with e.g. \`sed -n '1,200p' ${this.path}\` or \`grep -n PATTERN ${this.path}\`]`;
  }
}
