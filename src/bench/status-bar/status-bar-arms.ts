import type { StatusBarOptions } from "../../context/status-bar/status-bar-settings.js";

/** The arms of experiment 2-9: every part on, each one off, all off. */
export const statusBarArms = ["all-on", "no-timestamps", "no-counter", "no-todo", "no-errors", "no-state", "all-off"] as const;
export type StatusBarArm = (typeof statusBarArms)[number];

/**
 * The status-bar switches of an arm. Every arm sends the status in replace mode: in append mode the
 * stored statuses would carry each call's time into history and leak timestamps into the
 * no-timestamps arm. `all-off` also has no TODO tools.
 */
export function armOptions(arm: StatusBarArm): Pick<StatusBarOptions, "timestamps" | "counters" | "todo" | "detailedErrors" | "systemState" | "mode"> {
  const on = { timestamps: true, counters: true, todo: true, detailedErrors: true, systemState: true, mode: "replace" as const };
  switch (arm) {
    case "all-on":
      return on;
    case "no-timestamps":
      return { ...on, timestamps: false };
    case "no-counter":
      return { ...on, counters: false };
    case "no-todo":
      return { ...on, todo: false };
    case "no-errors":
      return { ...on, detailedErrors: false };
    case "no-state":
      return { ...on, systemState: false };
    case "all-off":
      return { timestamps: false, counters: false, todo: false, detailedErrors: false, systemState: false, mode: "off" };
  }
}
