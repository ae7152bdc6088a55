/**
 * `12,345`: what `value.toLocaleString("en-US")` gives, without ICU for whole numbers. The first
 * `Intl.NumberFormat` of a process costs 10–50 ms (V8 builds its table of locales), and counts in
 * tool descriptions and status lines are formatted before a run's first request (issue 30).
 * Anything but a safe whole number (fractions, -0, NaN, ±Infinity) still goes through ICU.
 */
export function formatCount(value: number): string {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return value.toLocaleString("en-US");
  return String(value).replace(/\B(?=(\d{3})+$)/g, ",");
}
