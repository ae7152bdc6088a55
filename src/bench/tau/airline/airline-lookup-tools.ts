import { contains, dictItem, item } from "../python/py-access.js";
import { readEntries } from "../python/copy-on-read-table.js";
import { dumpPythonJson } from "../python/dump-python-json.js";
import type { PyDict, PyValue } from "../python/py-value.js";
import { PythonError } from "../python/python-error.js";
import type { TauToolImplementation } from "../tau-tool-implementation.js";

/** The airline tools that only read: users, reservations, airports and flight search. */
export const getUserDetailsTool: TauToolImplementation = {
  name: "get_user_details",
  className: "GetUserDetails",
  parameters: ["user_id"],
  invoke(data, args) {
    const users = dictItem(data, "users");
    const userId = item(args, "user_id");
    return contains(users, userId) ? dumpPythonJson(item(users, userId as string)) : "Error: user not found";
  },
};

export const getReservationDetailsTool: TauToolImplementation = {
  name: "get_reservation_details",
  className: "GetReservationDetails",
  parameters: ["reservation_id"],
  invoke(data, args) {
    const reservations = dictItem(data, "reservations");
    const reservationId = item(args, "reservation_id");
    // The reference says "user not found" here, and the recorded runs show it.
    return contains(reservations, reservationId) ? dumpPythonJson(item(reservations, reservationId as string)) : "Error: user not found";
  },
};

const airports: ReadonlyArray<[string, string]> = [
  ["SFO", "San Francisco"], ["JFK", "New York"], ["LAX", "Los Angeles"], ["ORD", "Chicago"], ["DFW", "Dallas"],
  ["DEN", "Denver"], ["SEA", "Seattle"], ["ATL", "Atlanta"], ["MIA", "Miami"], ["BOS", "Boston"],
  ["PHX", "Phoenix"], ["IAH", "Houston"], ["LAS", "Las Vegas"], ["MCO", "Orlando"], ["EWR", "Newark"],
  ["CLT", "Charlotte"], ["MSP", "Minneapolis"], ["DTW", "Detroit"], ["PHL", "Philadelphia"], ["LGA", "LaGuardia"],
];

export const listAllAirportsTool: TauToolImplementation = {
  name: "list_all_airports",
  className: "ListAllAirports",
  parameters: [],
  invoke: () => dumpPythonJson(new Map<string, PyValue>(airports)),
};

/** A flight without its `dates`, with one date's status, seats and prices merged in (`dict.update`). */
function flightOnDate(flight: PyDict, dateData: PyDict): PyDict {
  const result: PyDict = new Map([...flight].filter(([key]) => key !== "dates"));
  for (const [key, value] of dateData) result.set(key, value);
  return result;
}

function isAvailableOn(flight: PyDict, date: PyValue): boolean {
  const dates = dictItem(flight, "dates");
  return contains(dates, date) && item(dictItem(dates, date as string), "status") === "available";
}

export const searchDirectFlightTool: TauToolImplementation = {
  name: "search_direct_flight",
  className: "SearchDirectFlight",
  parameters: ["origin", "destination", "date"],
  invoke(data, args) {
    const origin = item(args, "origin");
    const destination = item(args, "destination");
    const date = item(args, "date");
    const results: PyValue[] = [];
    for (const [, flight] of readEntries(dictItem(data, "flights"))) {
      if (!(flight instanceof Map) || item(flight, "origin") !== origin || item(flight, "destination") !== destination) continue;
      if (isAvailableOn(flight, date)) results.push(flightOnDate(flight, dictItem(dictItem(flight, "dates"), date as string)));
    }
    return dumpPythonJson(results);
  },
};

export const searchOnestopFlightTool: TauToolImplementation = {
  name: "search_onestop_flight",
  className: "SearchOnestopFlight",
  parameters: ["origin", "destination", "date"],
  invoke(data, args) {
    const origin = item(args, "origin");
    const destination = item(args, "destination");
    const date = item(args, "date");
    if (typeof date !== "string") throw new PythonError("TypeError", "'int' object is not subscriptable");
    const flights = [...readEntries(dictItem(data, "flights"))].map(([, flight]) => flight).filter((flight): flight is PyDict => flight instanceof Map);
    const results: PyValue[] = [];
    for (const first of flights) {
      if (item(first, "origin") !== origin) continue;
      for (const second of flights) {
        if (item(second, "destination") !== destination || item(first, "destination") !== item(second, "origin")) continue;
        const arrival = String(item(first, "scheduled_arrival_time_est"));
        // The reference's next-day date: the day number plus one, not zero-padded ("2024-05-2").
        const secondDate = arrival.includes("+1") ? `2024-05-${parseDayOfMonth(date) + 1}` : date;
        if (arrival > String(item(second, "scheduled_departure_time_est"))) continue;
        const firstDates = dictItem(first, "dates");
        const secondDates = dictItem(second, "dates");
        if (!contains(firstDates, date) || !contains(secondDates, secondDate)) continue;
        if (item(dictItem(firstDates, date), "status") !== "available" || item(dictItem(secondDates, secondDate), "status") !== "available") continue;
        const firstLeg = flightOnDate(first, dictItem(firstDates, date));
        firstLeg.set("date", date);
        // The reference merges the second flight's data for the *first* date, then sets the second date.
        const secondLeg = flightOnDate(second, dictItem(secondDates, date));
        secondLeg.set("date", secondDate);
        results.push([firstLeg, secondLeg]);
      }
    }
    return dumpPythonJson(results);
  },
};

function parseDayOfMonth(date: string): number {
  const text = date.slice(-2);
  if (!/^\s*[-+]?\d+\s*$/.test(text)) throw new PythonError("ValueError", `invalid literal for int() with base 10: ${JSON.stringify(text).replace(/^"|"$/g, "'")}`);
  return parseInt(text, 10);
}
