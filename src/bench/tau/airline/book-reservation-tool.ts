import { contains, dictItem, item, iterate, length, listItem } from "../python/py-access.js";
import { add, formatNumber, lessThan, multiply, requireNumber, subtract, sum } from "../python/python-arithmetic.js";
import { dumpPythonJson } from "../python/dump-python-json.js";
import { deepCopy, numericValue, type PyDict, type PyNumber, type PyValue } from "../python/py-value.js";
import type { TauToolImplementation } from "../tau-tool-implementation.js";

/**
 * `book_reservation`: prices each flight from the data, checks seats, balances and that the payments
 * add up to the total, then charges gift cards, spends certificates and stores the reservation.
 * Nothing in the data changes until every check passed. The reference never decrements seats.
 */
export const bookReservationTool: TauToolImplementation = {
  name: "book_reservation",
  className: "BookReservation",
  parameters: ["user_id", "origin", "destination", "flight_type", "cabin", "flights", "passengers", "payment_methods", "total_baggages", "nonfree_baggages", "insurance"],
  invoke(data, args) {
    const reservations = dictItem(data, "reservations");
    const users = dictItem(data, "users");
    const userId = item(args, "user_id");
    if (!contains(users, userId)) return "Error: user not found";
    const user = dictItem(users, userId as string);
    // The reference assumes at most three bookings per task.
    let reservationId = "HATHAT";
    if (reservations.has(reservationId)) {
      reservationId = "HATHAU";
      if (reservations.has(reservationId)) reservationId = "HATHAV";
    }
    const cabin = item(args, "cabin");
    const passengers = item(args, "passengers");
    const paymentMethods = item(args, "payment_methods");
    const reservation: PyDict = new Map<string, PyValue>([
      ["reservation_id", reservationId],
      ["user_id", userId],
      ["origin", item(args, "origin")],
      ["destination", item(args, "destination")],
      ["flight_type", item(args, "flight_type")],
      ["cabin", cabin],
      ["flights", deepCopy(item(args, "flights"))],
      ["passengers", passengers],
      ["payment_history", paymentMethods],
      ["created_at", "2024-05-15T15:00:00"],
      ["total_baggages", item(args, "total_baggages")],
      ["nonfree_baggages", item(args, "nonfree_baggages")],
      ["insurance", item(args, "insurance")],
    ]);
    const passengerCount = length(passengers);
    let totalPrice: PyNumber = 0;
    for (const flight of iterate(reservation.get("flights"))) {
      const flightNumber = item(flight, "flight_number");
      const flights = dictItem(data, "flights");
      if (!contains(flights, flightNumber)) return `Error: flight ${String(flightNumber)} not found`;
      const flightData = dictItem(flights, flightNumber as string);
      const date = item(flight, "date");
      const dates = dictItem(flightData, "dates");
      if (!contains(dates, date)) return `Error: flight ${String(flightNumber)} not found on date ${String(date)}`;
      const dateData = dictItem(dates, date as string);
      if (item(dateData, "status") !== "available") return `Error: flight ${String(flightNumber)} not available on date ${String(date)}`;
      if (lessThan(item(dictItem(dateData, "available_seats"), String(cabin)), passengerCount)) return `Error: not enough seats on flight ${String(flightNumber)}`;
      const price = item(dictItem(dateData, "prices"), String(cabin));
      const flightDict = flight as PyDict;
      flightDict.set("price", price);
      flightDict.set("origin", item(flightData, "origin"));
      flightDict.set("destination", item(flightData, "destination"));
      totalPrice = add(totalPrice, multiply(requireNumber(price, "*"), passengerCount));
    }
    if (item(args, "insurance") === "yes") totalPrice = add(totalPrice, 30 * passengerCount);
    totalPrice = add(totalPrice, multiply(50, requireNumber(item(args, "nonfree_baggages"), "*")));

    const userPaymentMethods = dictItem(user, "payment_methods");
    for (const payment of iterate(paymentMethods)) {
      const paymentId = item(payment, "payment_id");
      const amount = item(payment, "amount");
      if (!contains(userPaymentMethods, paymentId)) return `Error: payment method ${String(paymentId)} not found`;
      const method = dictItem(userPaymentMethods, paymentId as string);
      const source = item(method, "source");
      if ((source === "gift_card" || source === "certificate") && lessThan(item(method, "amount"), amount)) {
        return `Error: not enough balance in payment method ${String(paymentId)}`;
      }
    }
    const paid = sum(iterate(paymentMethods).map((payment) => requireNumber(item(payment, "amount"), "+") as PyNumber));
    if (numericValue(paid) !== numericValue(totalPrice)) {
      return `Error: payment amount does not add up, total price is ${formatNumber(totalPrice)}, but paid ${formatNumber(paid)}`;
    }
    for (const payment of iterate(paymentMethods)) {
      const paymentId = item(payment, "payment_id") as string;
      const method = dictItem(userPaymentMethods, paymentId);
      if (item(method, "source") === "gift_card") {
        method.set("amount", subtract(requireNumber(item(method, "amount"), "-"), requireNumber(item(payment, "amount"), "-")));
      } else if (item(method, "source") === "certificate") {
        userPaymentMethods.delete(paymentId);
      }
    }
    reservations.set(reservationId, reservation);
    listItem(user, "reservations").push(reservationId);
    return dumpPythonJson(reservation);
  },
};
