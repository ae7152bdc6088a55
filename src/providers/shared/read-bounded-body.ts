/**
 * Response bodies read with a bound: a server could otherwise send an endless one. Both readers
 * cancel the stream when they stop, so the connection is not left open.
 */

/** Error bodies are read up to this size (their message is all that is shown). */
export const maximumErrorBodyBytes = 64 * 1024;

/** The whole body as text; past `maximumBytes`, throws what `tooLarge` makes (an answer cut short cannot be used). */
export async function readWholeBody(response: Response, maximumBytes: number, tooLarge: (maximumBytes: number) => Error): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > maximumBytes) throw tooLarge(maximumBytes);
      chunks.push(value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The body's first `maximumBytes` as text, the rest left unread (an error body, whose head says enough). */
export async function readBodyHead(response: Response, maximumBytes: number = maximumErrorBodyBytes): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < maximumBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, maximumBytes).toString("utf8");
}
