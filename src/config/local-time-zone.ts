import { readlinkSync } from "node:fs";

const utcNames = new Set(["UTC", "Etc/UTC"]);

/**
 * The IANA name of the local time zone, as `Intl.DateTimeFormat().resolvedOptions().timeZone` gives
 * it. A host on UTC (most servers and containers) is recognised where ICU looks — `TZ`, else the
 * /etc/localtime link — without ICU, whose first date format costs 20–50 ms before a run's first
 * request (issue 30). Every other answer comes from Intl itself, unless Intl has no name for it:
 * `TZ=` (empty), a POSIX rule (`TZ=UTC0`, `TZ=EST5`) or a file path give "Etc/Unknown" or nothing,
 * which no time zone option accepts; then the zone is named by the current offset from UTC.
 */
export function localTimeZone(): string {
  const variable = process.env.TZ;
  const named = variable === undefined ? linkedZoneName() : variable.replace(/^:/, "");
  if (named !== undefined && utcNames.has(named)) return "UTC";
  const resolved = Intl.DateTimeFormat().resolvedOptions().timeZone as string | undefined;
  return resolved === undefined || resolved === "Etc/Unknown" ? zoneOfOffset(new Date().getTimezoneOffset()) : resolved;
}

/**
 * A zone with this fixed offset (`Date#getTimezoneOffset`: minutes *behind* UTC). The Etc/GMT zones
 * invert the sign (POSIX style): Etc/GMT+5 is five hours behind UTC, as in New York in winter. They
 * cover whole hours only; another offset is named as "+05:30" where Intl accepts that (Node 22+),
 * else rounded to the nearest hour.
 */
export function zoneOfOffset(minutesBehindUtc: number): string {
  if (minutesBehindUtc === 0) return "UTC";
  if (minutesBehindUtc % 60 !== 0) {
    const ahead = -minutesBehindUtc;
    const offset = `${ahead < 0 ? "-" : "+"}${String(Math.floor(Math.abs(ahead) / 60)).padStart(2, "0")}:${String(Math.abs(ahead) % 60).padStart(2, "0")}`;
    try {
      return Intl.DateTimeFormat(undefined, { timeZone: offset }).resolvedOptions().timeZone;
    } catch {
      // Older ICU: the nearest whole hour below.
    }
  }
  const hoursBehind = Math.round(minutesBehindUtc / 60);
  if (hoursBehind === 0) return "UTC";
  return `Etc/GMT${hoursBehind > 0 ? "+" : "-"}${Math.abs(hoursBehind)}`;
}

/** What follows the first `/zoneinfo/` in the /etc/localtime link (ICU's reading), if it is a link. */
function linkedZoneName(): string | undefined {
  try {
    const target = readlinkSync("/etc/localtime");
    const at = target.indexOf("/zoneinfo/");
    return at === -1 ? undefined : target.slice(at + "/zoneinfo/".length);
  } catch {
    return undefined;
  }
}
