const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      weekday: "long",
      hourCycle: "h23",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const twoDigits = (value: number) => String(value).padStart(2, "0");

/**
 * The same parts for UTC from the Date itself: the first `Intl.DateTimeFormat` of a process costs
 * 20–50 ms (V8 builds its table of locales), and a run's first request carries a timestamp (issue
 * 30). Years of four digits only; others go through ICU like every other time zone.
 */
function utcPartsOf(date: Date): Record<string, string> | undefined {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return undefined;
  return {
    year: String(year),
    month: twoDigits(date.getUTCMonth() + 1),
    day: twoDigits(date.getUTCDate()),
    hour: twoDigits(date.getUTCHours()),
    minute: twoDigits(date.getUTCMinutes()),
    second: twoDigits(date.getUTCSeconds()),
    weekday: weekdays[date.getUTCDay()]!,
  };
}

function partsOf(date: Date, timeZone: string): Record<string, string> {
  const utc = timeZone === "UTC" ? utcPartsOf(date) : undefined;
  if (utc !== undefined) return utc;
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(date)) parts[part.type] = part.value;
  return parts;
}

/** `2025-09-14 10:30:45` in the given IANA time zone — the seed's event-metadata format. */
export function formatTimestamp(date: Date, timeZone = "UTC"): string {
  const parts = partsOf(date, timeZone);
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** `2025-09-14 10:30:45 Sunday (UTC)`: the status bar's clock line, with the weekday for "yesterday"/"Monday" reasoning. */
export function formatClockLine(date: Date, timeZone = "UTC"): string {
  return `${formatTimestamp(date, timeZone)} ${partsOf(date, timeZone).weekday} (${timeZone})`;
}

/** A short elapsed time: `45 s`, `12 min`, `3 h 5 min`, `2 d 4 h`. Negative spans (clock skew) count as 0. */
export function formatDuration(milliseconds: number): string {
  const seconds = Math.max(0, Math.round(milliseconds / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}
