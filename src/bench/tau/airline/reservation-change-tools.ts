import { contains, dictItem, item, iterate, length, listItem } from "../python/py-access.js";
import { add, lessThan, maximum, multiply, negate, requireNumber, subtract, sum } from "../python/python-arithmetic.js";
import { dumpPythonJson } from "../python/dump-python-json.js";
import { deepCopy, numericValue, type PyDict, type PyNumber, type PyValue } from "../python/py-value.js";
import type { TauToolImplementation } from "../tau-tool-implementation.js";

/** The airline tools that change a reservation: cancel, baggage, flights, passengers, certificates. */
export const cancelReservationTool: TauToolImplementation = {
  name: "cancel_reservation",
  className: "CancelReservation",
  parameters: ["reservation_id"],
  invoke(data, args) {
    const reservations = dictItem(data, "reservations");
    const reservationId = item(args, "reservation_id");
    if (!contains(reservations, reservationId)) return "Error: reservation not found";
    const reservation = dictItem(reservations, reservationId as string);
    const history = listItem(reservation, "payment_history");
    // Refund every payment, the refunds of earlier refunds included, as the reference does.
    const refunds: PyValue[] = history.map((payment) => new Map<string, PyValue>([
      ["payment_id", item(payment, "payment_id")],
      ["amount", negate(requireNumber(item(payment, "amount"), "-"))],
    ]));
    history.push(...refunds);
    reservation.set("status", "cancelled");
    return dumpPythonJson(reservation);
  },
};

/** The user's payment method for a reservation change, or the reference's refusal. */
function changePaymentMethod(data: PyDict, reservation: PyDict, paymentId: PyValue, totalPrice: PyNumber): PyDict | string {
  const methods = dictItem(dictItem(dictItem(data, "users"), item(reservation, "user_id") as string), "payment_methods");
  if (!contains(methods, paymentId)) return "Error: payment method not found";
  const method = dictItem(methods, paymentId as string);
  if (item(method, "source") === "certificate") return "Error: certificate cannot be used to update reservation";
  if (item(method, "source") === "gift_card" && lessThan(item(method, "amount"), totalPrice)) return "Error: gift card balance is not enough";
  return method;
}

function recordPayment(reservation: PyDict, paymentId: PyValue, totalPrice: PyNumber): void {
  if (numericValue(totalPrice) === 0) return;
  listItem(reservation, "payment_history").push(new Map<string, PyValue>([["payment_id", paymentId], ["amount", totalPrice]]));
}

export const updateReservationBaggagesTool: TauToolImplementation = {
  name: "update_reservation_baggages",
  className: "UpdateReservationBaggages",
  parameters: ["reservation_id", "total_baggages", "nonfree_baggages", "payment_id"],
  invoke(data, args) {
    const reservations = dictItem(data, "reservations");
    const reservationId = item(args, "reservation_id");
    if (!contains(reservations, reservationId)) return "Error: reservation not found";
    const reservation = dictItem(reservations, reservationId as string);
    const nonfree = requireNumber(item(args, "nonfree_baggages"), "-");
    const totalPrice = multiply(50, maximum(0, subtract(nonfree, requireNumber(item(reservation, "nonfree_baggages"), "-"))));
    const paymentId = item(args, "payment_id");
    const method = changePaymentMethod(data, reservation, paymentId, totalPrice);
    if (typeof method === "string") return method;
    reservation.set("total_baggages", item(args, "total_baggages"));
    reservation.set("nonfree_baggages", item(args, "nonfree_baggages"));
    if (item(method, "source") === "gift_card") method.set("amount", subtract(requireNumber(item(method, "amount"), "-"), totalPrice));
    recordPayment(reservation, paymentId, totalPrice);
    return dumpPythonJson(reservation);
  },
};

/**
 * `update_reservation_flights`: flights kept from the reservation (same number and date, cabin
 * unchanged) keep their price; new ones are priced from the data. The difference is charged or
 * refunded to one non-certificate payment method. Like the reference, it leaves the reservation's
 * `cabin` field and the flights' seat counts as they were.
 */
export const updateReservationFlightsTool: TauToolImplementation = {
  name: "update_reservation_flights",
  className: "UpdateReservationFlights",
  parameters: ["reservation_id", "cabin", "flights", "payment_id"],
  invoke(data, args) {
    const reservations = dictItem(data, "reservations");
    const reservationId = item(args, "reservation_id");
    if (!contains(reservations, reservationId)) return "Error: reservation not found";
    const reservation = dictItem(reservations, reservationId as string);
    const cabin = item(args, "cabin");
    const passengerCount = length(item(reservation, "passengers"));
    const flights = deepCopy(item(args, "flights"));
    let totalPrice: PyNumber = 0;
    for (const flight of iterate(flights)) {
      const flightDict = flight as PyDict;
      const kept = iterate(item(reservation, "flights")).find(
        (existing) => item(existing, "flight_number") === item(flight, "flight_number") && item(existing, "date") === item(flight, "date") && cabin === item(reservation, "cabin"),
      );
      if (kept !== undefined) {
        totalPrice = add(totalPrice, multiply(requireNumber(item(kept, "price"), "*"), passengerCount));
        flightDict.set("price", item(kept, "price"));
        flightDict.set("origin", item(kept, "origin"));
        flightDict.set("destination", item(kept, "destination"));
        continue;
      }
      const flightNumber = item(flight, "flight_number");
      const allFlights = dictItem(data, "flights");
      if (!contains(allFlights, flightNumber)) return `Error: flight ${String(flightNumber)} not found`;
      const flightData = dictItem(allFlights, flightNumber as string);
      const date = item(flight, "date");
      const dates = dictItem(flightData, "dates");
      if (!contains(dates, date)) return `Error: flight ${String(flightNumber)} not found on date ${String(date)}`;
      const dateData = dictItem(dates, date as string);
      if (item(dateData, "status") !== "available") return `Error: flight ${String(flightNumber)} not available on date ${String(date)}`;
      if (lessThan(item(dictItem(dateData, "available_seats"), String(cabin)), passengerCount)) return `Error: not enough seats on flight ${String(flightNumber)}`;
      const price = item(dictItem(dateData, "prices"), String(cabin));
      flightDict.set("price", price);
      flightDict.set("origin", item(flightData, "origin"));
      flightDict.set("destination", item(flightData, "destination"));
      totalPrice = add(totalPrice, multiply(requireNumber(price, "*"), passengerCount));
    }
    const oldPrice = sum(iterate(item(reservation, "flights")).map((flight) => requireNumber(item(flight, "price"), "+") as PyNumber));
    totalPrice = subtract(totalPrice, multiply(oldPrice, passengerCount));
    const paymentId = item(args, "payment_id");
    const method = changePaymentMethod(data, reservation, paymentId, totalPrice);
    if (typeof method === "string") return method;
    if (item(method, "source") === "gift_card") method.set("amount", subtract(requireNumber(item(method, "amount"), "-"), totalPrice));
    reservation.set("flights", flights);
    recordPayment(reservation, paymentId, totalPrice);
    return dumpPythonJson(reservation);
  },
};

export const updateReservationPassengersTool: TauToolImplementation = {
  name: "update_reservation_passengers",
  className: "UpdateReservationPassengers",
  parameters: ["reservation_id", "passengers"],
  invoke(data, args) {
    const reservations = dictItem(data, "reservations");
    const reservationId = item(args, "reservation_id");
    if (!contains(reservations, reservationId)) return "Error: reservation not found";
    const reservation = dictItem(reservations, reservationId as string);
    const passengers = item(args, "passengers");
    if (length(passengers) !== length(item(reservation, "passengers"))) return "Error: number of passengers does not match";
    reservation.set("passengers", passengers);
    return dumpPythonJson(reservation);
  },
};

export const sendCertificateTool: TauToolImplementation = {
  name: "send_certificate",
  className: "SendCertificate",
  parameters: ["user_id", "amount"],
  invoke(data, args) {
    const users = dictItem(data, "users");
    const userId = item(args, "user_id");
    if (!contains(users, userId)) return "Error: user not found";
    const methods = dictItem(dictItem(users, userId as string), "payment_methods");
    const amount = item(args, "amount");
    // The reference assumes at most three certificates per task.
    for (const id of [3221322, 3221323, 3221324]) {
      const paymentId = `certificate_${id}`;
      if (methods.has(paymentId)) continue;
      methods.set(paymentId, new Map<string, PyValue>([["source", "certificate"], ["amount", amount], ["id", paymentId]]));
      return `Certificate ${paymentId} added to user ${String(userId)} with amount ${formatArgument(amount)}.`;
    }
    // The reference returns None here, which its environment cannot turn into an observation.
    return "None";
  },
};

function formatArgument(value: PyValue): string {
  return typeof value === "string" ? value : dumpPythonJson(value);
}
