/** A W3C traceparent of version 00 with non-zero ids: 55 characters, so it is bounded too. */
export function isTraceparent(value: string): boolean {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(value);
  return match !== null && !/^0+$/.test(match[1]!) && !/^0+$/.test(match[2]!);
}
