import { describe, expect, it } from "vitest";
import { createSessionId, isValidSessionId } from "./session-id.js";

describe("session ids", () => {
  it("start with the UTC creation time so they sort by age", () => {
    expect(createSessionId("2026-11-30T04:15:02.118Z", "a1b2c3")).toBe("20261130-041502-a1b2c3");
    expect(createSessionId("2026-11-30T05:15:02+01:00", "000000")).toBe("20261130-041502-000000");
    const ids = ["2026-01-02T00:00:00Z", "2025-12-31T23:59:59Z", "2026-01-01T12:00:00Z"].map((time) => createSessionId(time));
    expect([...ids].sort()).toEqual([ids[1], ids[2], ids[0]]);
  });

  it("refuses a creation time that is not a date", () => {
    expect(() => createSessionId("yesterday")).toThrow(expect.objectContaining({ code: "option_invalid" }));
  });

  it("accept only names that stay inside the session directory", () => {
    expect(isValidSessionId(createSessionId("2026-11-30T04:15:02Z"))).toBe(true);
    for (const bad of ["", "..", "../x", "a/b", "a\\b", ".hidden", "x".repeat(129)]) expect(isValidSessionId(bad)).toBe(false);
  });
});
