import { afterEach, describe, expect, it, vi } from "vitest";
import { startLongTimer } from "./start-long-timer.js";

describe("startLongTimer", () => {
  afterEach(() => void vi.useRealTimers());

  it("fires after a delay longer than setTimeout keeps (30 days), not before", () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    startLongTimer(fired, 30 * 24 * 3600 * 1000);
    vi.advanceTimersByTime(29 * 24 * 3600 * 1000);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(24 * 3600 * 1000);
    expect(fired).toHaveBeenCalledOnce();
  });

  it("fires a short or past delay as setTimeout does, and not once cleared", () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    startLongTimer(fired, -5);
    startLongTimer(fired, 100).clear();
    vi.advanceTimersByTime(1_000);
    expect(fired).toHaveBeenCalledOnce();
  });
});
