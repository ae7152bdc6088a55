import { readlinkSync } from "node:fs";

const utcNames = new Set(["UTC", "Etc/UTC"]);

/**
 * The IANA name of the local time zone, as `Intl.DateTimeFormat().resolvedOptions().timeZone` gives
 * it. A host on UTC (most servers and containers) is recognised where ICU looks — `TZ`, else the
 * /etc/localtime link — without ICU, whose first date format costs 20–50 ms before a run's first
 * request (issue 30). Every other answer comes from Intl itself.
 */
export function localTimeZone(): string {
  const variable = process.env.TZ;
  const named = variable === undefined ? linkedZoneName() : variable.replace(/^:/, "");
  if (named !== undefined && utcNames.has(named)) return "UTC";
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
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
