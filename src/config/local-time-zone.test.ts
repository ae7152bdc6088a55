import { afterEach, describe, expect, it } from "vitest";
import { localTimeZone } from "./local-time-zone.js";

const original = process.env.TZ;
afterEach(() => {
  if (original === undefined) delete process.env.TZ;
  else process.env.TZ = original;
});

describe("localTimeZone", () => {
  it("names the zone Intl names, whatever TZ says (and without it)", () => {
    for (const value of [undefined, "UTC", "Etc/UTC", ":UTC", ":Etc/UTC", "GMT", "Europe/Berlin", "Asia/Kolkata", "America/Argentina/Buenos_Aires", ""]) {
      if (value === undefined) delete process.env.TZ;
      else process.env.TZ = value;
      expect(localTimeZone(), `TZ=${String(value)}`).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    }
    // The variable did reach ICU (else every case above compared UTC with UTC).
    process.env.TZ = "Europe/Berlin";
    expect(localTimeZone()).toBe("Europe/Berlin");
  });
});
