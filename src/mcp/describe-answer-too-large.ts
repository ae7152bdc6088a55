/**
 * Why a server's answer was not read, for the call's error result: its size when known (a stdio line
 * counted to its end), else the limit it passed (an HTTP body cut while it streams), and what the
 * model can do about it.
 */
export function describeAnswerTooLarge(limitBytes: number, sizeBytes?: number): string {
  const size = sizeBytes === undefined ? `is over ${megabytes(limitBytes)}, more than` : `has ${megabytes(sizeBytes)}, more than the ${megabytes(limitBytes)}`;
  return `the server's answer ${size} ctxkit reads from an MCP server, so it was not read; for a tool call, ask the tool for less (a part, a page, a range or a filter)`;
}

/** Bytes as megabytes with one decimal ("14.0 MB"). */
export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
