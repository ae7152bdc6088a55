import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatClockLine, formatTimestamp } from "./format-timestamp.js";

// What ICU writes for a time zone (the path every zone but UTC takes): the oracle for UTC's own path.
function fromIcu(date: Date, timeZone: string): { timestamp: string; clock: string } {
  const format = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", weekday: "long", hourCycle: "h23" });
  const parts = Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
  const timestamp = `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
  return { timestamp, clock: `${timestamp} ${parts.weekday} (${timeZone})` };
}

describe("timestamps in UTC, written without ICU", () => {
  it("are the bytes ICU writes, around midnight, month ends, leap days and across four-digit years", () => {
    const dates = ["2025-09-14T10:30:45Z", "2024-02-29T23:59:59.999Z", "2024-12-31T00:00:00Z", "1000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "1970-01-01T00:00:00Z"].map((text) => new Date(text));
    for (const date of dates) {
      expect(formatTimestamp(date, "UTC")).toBe(fromIcu(date, "UTC").timestamp);
      expect(formatClockLine(date, "UTC")).toBe(fromIcu(date, "UTC").clock);
    }
    const anyTime = fc.date({ min: new Date("1000-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true });
    fc.assert(fc.property(anyTime, (date) => formatClockLine(date, "UTC") === fromIcu(date, "UTC").clock));
  });

  it("leave years of other lengths, and other time zones, to ICU", () => {
    const date = new Date("0999-06-01T12:00:00Z");
    expect(formatTimestamp(date, "UTC")).toBe(fromIcu(date, "UTC").timestamp);
    const berlin = new Date("2025-03-30T01:30:00Z");
    expect(formatClockLine(berlin, "Europe/Berlin")).toBe(fromIcu(berlin, "Europe/Berlin").clock);
  });
});
