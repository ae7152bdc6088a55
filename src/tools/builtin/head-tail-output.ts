import { StringDecoder } from "node:string_decoder";

/**
 * Collects a command's output within a byte budget, keeping its start and its end: the start shows
 * what ran, the end holds the errors and the summary, and the middle is usually repetitive progress.
 */
export class HeadTailOutput {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);
  private total = 0;

  constructor(maxBytes: number) {
    this.headLimit = Math.floor(maxBytes / 2);
    this.tailLimit = maxBytes - this.headLimit;
  }

  append(chunk: Buffer): void {
    this.total += chunk.length;
    const headRoom = this.headLimit - this.head.length;
    if (headRoom > 0) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, headRoom)]);
      chunk = chunk.subarray(headRoom);
    }
    if (chunk.length === 0) return;
    // Cut as it streams in: at most the budget is kept between chunks, whatever the output's size
    // (the kept tail is copied out of `combined`, so no view holds on to a whole chunk).
    const combined = Buffer.concat([this.tail, chunk]);
    this.tail = combined.length <= this.tailLimit ? combined : Buffer.from(combined.subarray(combined.length - this.tailLimit));
  }

  /** Bytes held between chunks: never more than the budget. */
  get retainedBytes(): number {
    return this.head.length + this.tail.length;
  }

  /** Every byte so far, while nothing was elided yet (the spill file's start). */
  keptBytes(): Buffer {
    return Buffer.concat([this.head, this.tail]);
  }

  /** Whether this chunk would push the output past its budget (nothing is elided until then). */
  wouldOverflow(chunk: Buffer): boolean {
    return this.total + chunk.length > this.headLimit + this.tailLimit;
  }

  get totalBytes(): number {
    return this.total;
  }

  toString(): string {
    const elided = this.total - this.head.length - this.tail.length;
    if (elided === 0) return Buffer.concat([this.head, this.tail]).toString("utf8");
    // Cut points fall anywhere; drop partial UTF-8 characters at both edges instead of showing U+FFFD.
    const headText = new StringDecoder("utf8").write(this.head);
    let tailStart = 0;
    while (tailStart < this.tail.length && ((this.tail[tailStart] as number) & 0xc0) === 0x80) tailStart += 1;
    const tailText = this.tail.subarray(tailStart).toString("utf8");
    return `${headText}\n[… ${elided + tailStart} bytes elided from the middle of the output …]\n${tailText}`;
  }
}
