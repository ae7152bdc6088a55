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
    if (elided === 0) {
      const whole = Buffer.concat([this.head, this.tail]);
      const text = whole.toString("utf8");
      if (Buffer.byteLength(text) <= this.headLimit + this.tailLimit) return text;
      // Binary output: each byte that is not UTF-8 is shown as U+FFFD, three bytes, so the text of
      // output within the budget can be three times the budget. Cut it like output over the budget.
      return this.cutText(whole.subarray(0, this.headLimit), whole.subarray(this.headLimit), 0);
    }
    return this.cutText(this.head, this.tail, elided);
  }

  /**
   * The head's start and the tail's end, each within its share of the budget as text (U+FFFD for
   * bytes that are not UTF-8 counts three bytes), with the bytes left out counted in the marker.
   * Cut points fall anywhere; partial UTF-8 characters at both edges are dropped instead of shown as U+FFFD.
   */
  private cutText(head: Buffer, tail: Buffer, elided: number): string {
    const headBytes = withoutCutCharacter(head, longestPrefixWithin(head, this.headLimit));
    const tailStart = shortestSuffixStartWithin(tail, this.tailLimit);
    const headText = head.subarray(0, headBytes).toString("utf8");
    const tailText = tail.subarray(tailStart).toString("utf8");
    const left = elided + (head.length - headBytes) + tailStart;
    return `${headText}\n[… ${left} bytes elided from the middle of the output …]\n${tailText}`;
  }
}

function decodedBytes(bytes: Buffer): number {
  return Buffer.byteLength(new StringDecoder("utf8").write(bytes));
}

/** The most bytes from the start whose text (an unfinished last character dropped) fits in `limit`. */
function longestPrefixWithin(bytes: Buffer, limit: number): number {
  if (decodedBytes(bytes) <= limit) return bytes.length;
  // The text only grows with the prefix, so the longest that fits is found by bisection.
  let low = 0;
  let high = bytes.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (decodedBytes(bytes.subarray(0, middle)) <= limit) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * The prefix's length without the bytes of a character it cuts (at most three), which are not
 * shown: they count among the bytes elided, so what is shown and what is elided add up to the output.
 */
function withoutCutCharacter(bytes: Buffer, length: number): number {
  let end = length;
  // A decoder holds back the bytes of an unfinished character, where toString shows U+FFFD for them.
  while (end > 0 && new StringDecoder("utf8").write(bytes.subarray(0, end)) !== bytes.subarray(0, end).toString("utf8")) end -= 1;
  return end;
}

/** Where the shortest cut of the start leaves text that fits in `limit`, not inside a character. */
function shortestSuffixStartWithin(bytes: Buffer, limit: number): number {
  const skipContinuation = (start: number): number => {
    while (start < bytes.length && ((bytes[start] as number) & 0xc0) === 0x80) start += 1;
    return start;
  };
  const first = skipContinuation(0);
  if (Buffer.byteLength(bytes.subarray(first).toString("utf8")) <= limit) return first;
  let low = first;
  let high = bytes.length;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (Buffer.byteLength(bytes.subarray(middle).toString("utf8")) <= limit) high = middle;
    else low = middle + 1;
  }
  return skipContinuation(low);
}
