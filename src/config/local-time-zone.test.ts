import { afterEach, describe, expect, it } from "vitest";
import { localTimeZone, zoneOfOffset } from "./local-time-zone.js";

const original = process.env.TZ;
afterEach(() => {
  if (original === undefined) delete process.env.TZ;
  else process.env.TZ = original;
});

describe("localTimeZone", () => {
  it("names the zone Intl names, whatever TZ says (and without it)", () => {
    for (const value of [undefined, "UTC", "Etc/UTC", ":UTC", ":Etc/UTC", "GMT", "Europe/Berlin", "Asia/Kolkata", "America/Argentina/Buenos_Aires"]) {
      if (value === undefined) delete process.env.TZ;
      else process.env.TZ = value;
      expect(localTimeZone(), `TZ=${String(value)}`).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    }
    // The variable did reach ICU (else every case above compared UTC with UTC).
    process.env.TZ = "Europe/Berlin";
    expect(localTimeZone()).toBe("Europe/Berlin");
  });

  it("names a zone Intl accepts when Intl has no name for TZ (empty, POSIX rules, a path)", () => {
    for (const value of ["", "UTC0", "EST5", "/no/such/zone/file"]) {
      process.env.TZ = value;
      const zone = localTimeZone();
      expect(zone, `TZ=${JSON.stringify(value)}`).not.toBe("Etc/Unknown");
      // A name every time zone option accepts, with the offset the process has now.
      const offsetThere = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" }).formatToParts(new Date()).find((part) => part.type === "timeZoneName")?.value;
      const minutesAhead = -new Date().getTimezoneOffset();
      const expected = `GMT${minutesAhead < 0 ? "-" : "+"}${String(Math.floor(Math.abs(minutesAhead) / 60)).padStart(2, "0")}:${String(Math.abs(minutesAhead) % 60).padStart(2, "0")}`;
      expect(offsetThere === "GMT" ? "GMT+00:00" : offsetThere, `TZ=${JSON.stringify(value)} gave ${zone}`).toBe(expected);
    }
  });
});

describe("zoneOfOffset", () => {
  it("names whole-hour offsets with the inverted sign of the Etc/GMT zones", () => {
    expect(zoneOfOffset(0)).toBe("UTC");
    expect(zoneOfOffset(300)).toBe("Etc/GMT+5"); // five hours behind UTC (New York in winter)
    expect(zoneOfOffset(-60)).toBe("Etc/GMT-1"); // one hour ahead (Berlin in winter)
    expect(zoneOfOffset(-840)).toBe("Etc/GMT-14");
  });

  it("keeps an offset that is not whole hours if Intl can name it, else the nearest hour", () => {
    const zone = zoneOfOffset(-330);
    expect(["+05:30", "Etc/GMT-6", "Etc/GMT-5"]).toContain(zone);
    expect(() => Intl.DateTimeFormat(undefined, { timeZone: zone })).not.toThrow();
  });
});
