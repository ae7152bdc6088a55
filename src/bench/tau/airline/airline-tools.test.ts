import { describe, expect, it } from "vitest";
import { invokeTauTool } from "../invoke-tau-tool.js";
import { dumpPythonJson } from "../python/dump-python-json.js";
import type { PyDict } from "../python/py-value.js";
import { airlineFixture, kwargs } from "../test-support/tau-fixtures.js";

const domain = airlineFixture();

function session() {
  const data = domain.freshData();
  const call = (name: string, args: string) => invokeTauTool(domain.tools, data, name, kwargs(args));
  const user = () => JSON.parse(call("get_user_details", '{"user_id": "mia_li_1"}')) as { payment_methods: Record<string, { amount?: number }>; reservations: string[] };
  return { data, call, user };
}

const oneWay = (payments: string, extra = "") =>
  `{"user_id": "mia_li_1", "origin": "JFK", "destination": "SEA", "flight_type": "one_way", "cabin": "economy",
    "flights": [{"flight_number": "HAT001", "date": "2024-05-20"}], "passengers": [{"first_name": "Mia", "last_name": "Li", "dob": "1990-04-05"}],
    "payment_methods": ${payments}, "total_baggages": 1, "nonfree_baggages": 0, "insurance": "no"${extra}}`;

describe("book_reservation", () => {
  it("spends a certificate whole and charges the rest to a card, in the reference's key order", () => {
    const { call, user } = session();
    const output = call("book_reservation", oneWay('[{"payment_id": "certificate_1", "amount": 100}, {"payment_id": "credit_card_1", "amount": 50}]'));
    expect(output).toBe(
      '{"reservation_id": "HATHAT", "user_id": "mia_li_1", "origin": "JFK", "destination": "SEA", "flight_type": "one_way", "cabin": "economy", ' +
        '"flights": [{"flight_number": "HAT001", "date": "2024-05-20", "price": 150, "origin": "JFK", "destination": "SEA"}], ' +
        '"passengers": [{"first_name": "Mia", "last_name": "Li", "dob": "1990-04-05"}], ' +
        '"payment_history": [{"payment_id": "certificate_1", "amount": 100}, {"payment_id": "credit_card_1", "amount": 50}], ' +
        '"created_at": "2024-05-15T15:00:00", "total_baggages": 1, "nonfree_baggages": 0, "insurance": "no"}',
    );
    expect(user().payment_methods.certificate_1).toBeUndefined();
    expect(user().reservations).toEqual(["ABC123", "HATHAT"]);
  });

  it("deducts a gift card and keeps a float amount a float", () => {
    const { call, user } = session();
    const output = call("book_reservation", oneWay('[{"payment_id": "gift_card_1", "amount": 100.0}, {"payment_id": "credit_card_1", "amount": 50}]'));
    expect(output).toContain('"payment_history": [{"payment_id": "gift_card_1", "amount": 100.0}');
    const data = session();
    expect(data.user().payment_methods.gift_card_1?.amount).toBe(100);
    expect(user().payment_methods.gift_card_1?.amount).toBe(0);
  });

  it("adds insurance and extra bags to the total it checks the payments against", () => {
    const { call } = session();
    expect(call("book_reservation", oneWay('[{"payment_id": "credit_card_1", "amount": 150}]', "").replace('"insurance": "no"', '"insurance": "yes"'))).toBe(
      "Error: payment amount does not add up, total price is 180, but paid 150",
    );
    expect(call("book_reservation", oneWay('[{"payment_id": "credit_card_1", "amount": 150.5}]').replace('"nonfree_baggages": 0', '"nonfree_baggages": 2'))).toBe(
      "Error: payment amount does not add up, total price is 250, but paid 150.5",
    );
  });

  it("refuses unknown or short payment methods, full flights and unbookable dates before changing anything", () => {
    const { call, user } = session();
    expect(call("book_reservation", oneWay('[{"payment_id": "gift_card_1", "amount": 150}]'))).toBe("Error: not enough balance in payment method gift_card_1");
    expect(call("book_reservation", oneWay('[{"payment_id": "paypal_1", "amount": 150}]'))).toBe("Error: payment method paypal_1 not found");
    const twoPassengers = oneWay('[{"payment_id": "credit_card_1", "amount": 300}]').replace('"passengers": [', '"passengers": [{"first_name": "A", "last_name": "B", "dob": "2000-01-01"}, ');
    expect(call("book_reservation", twoPassengers)).toBe("Error: not enough seats on flight HAT001");
    expect(call("book_reservation", oneWay("[]").replace("2024-05-20", "2024-05-21"))).toBe("Error: flight HAT001 not available on date 2024-05-21");
    expect(call("book_reservation", oneWay("[]").replace("2024-05-20", "2024-06-01"))).toBe("Error: flight HAT001 not found on date 2024-06-01");
    expect(user().payment_methods.gift_card_1?.amount).toBe(100);
    expect(user().reservations).toEqual(["ABC123"]);
  });

  it("reports missing arguments in Python's words", () => {
    const { call } = session();
    expect(call("book_reservation", '{"user_id": "mia_li_1"}')).toMatch(/^Error: BookReservation\.invoke\(\) missing 10 required positional arguments: 'origin', 'destination', .*, and 'insurance'$/);
    expect(call("get_user_details", '{"user_id": "x", "extra": 1}')).toBe("Error: GetUserDetails.invoke() got an unexpected keyword argument 'extra'");
    expect(call("fly_me_to_the_moon", "{}")).toBe("Unknown action fly_me_to_the_moon");
  });
});

describe("changing a reservation", () => {
  it("cancels by refunding every payment, whenever it was booked (the policy, not the tool, checks the 24 hours)", () => {
    const { call } = session();
    const reservation = JSON.parse(call("cancel_reservation", '{"reservation_id": "ABC123"}')) as { status: string; payment_history: unknown[] };
    expect(reservation.status).toBe("cancelled");
    expect(reservation.payment_history).toEqual([{ payment_id: "credit_card_1", amount: 300 }, { payment_id: "credit_card_1", amount: -300 }]);
    expect(call("cancel_reservation", '{"reservation_id": "NOPE"}')).toBe("Error: reservation not found");
    expect(call("get_reservation_details", '{"reservation_id": "NOPE"}')).toBe("Error: user not found");
  });

  it("reprices every flight on a cabin change and charges the difference; certificates cannot pay", () => {
    const { call, user } = session();
    const change = (payment: string) =>
      call("update_reservation_flights", `{"reservation_id": "ABC123", "cabin": "business", "flights": [{"flight_number": "HAT001", "date": "2024-05-20"}, {"flight_number": "HAT002", "date": "2024-05-25"}], "payment_id": "${payment}"}`);
    expect(change("certificate_1")).toBe("Error: certificate cannot be used to update reservation");
    expect(change("gift_card_1")).toBe("Error: gift card balance is not enough");
    const reservation = JSON.parse(change("credit_card_1")) as { cabin: string; flights: Array<{ price: number }>; payment_history: unknown[] };
    expect(reservation.flights.map((flight) => flight.price)).toEqual([400, 520]);
    expect(reservation.payment_history.at(-1)).toEqual({ payment_id: "credit_card_1", amount: 620 });
    // The reference does not write the new cabin into the reservation.
    expect(reservation.cabin).toBe("economy");
    expect(user().payment_methods.gift_card_1?.amount).toBe(100);
  });

  it("keeps the old price of a kept segment in the same cabin and refunds a cheaper change to a gift card", () => {
    const { call, user } = session();
    const output = call("update_reservation_flights", '{"reservation_id": "ABC123", "cabin": "economy", "flights": [{"flight_number": "HAT001", "date": "2024-05-20"}, {"flight_number": "HAT002", "date": "2024-05-20"}], "payment_id": "gift_card_1"}');
    const reservation = JSON.parse(output) as { flights: Array<{ price: number }>; payment_history: unknown[] };
    expect(reservation.flights.map((flight) => flight.price)).toEqual([140, 170]);
    expect(reservation.payment_history.at(-1)).toEqual({ payment_id: "gift_card_1", amount: 10 });
    expect(user().payment_methods.gift_card_1?.amount).toBe(90);
  });

  it("charges 50 per added non-free bag, nothing for fewer, and checks the passenger count", () => {
    const { call } = session();
    const bags = JSON.parse(call("update_reservation_baggages", '{"reservation_id": "ABC123", "total_baggages": 3, "nonfree_baggages": 2, "payment_id": "credit_card_1"}')) as { payment_history: unknown[] };
    expect(bags.payment_history.at(-1)).toEqual({ payment_id: "credit_card_1", amount: 100 });
    const fewer = JSON.parse(call("update_reservation_baggages", '{"reservation_id": "ABC123", "total_baggages": 1, "nonfree_baggages": 0, "payment_id": "credit_card_1"}')) as { payment_history: unknown[] };
    expect(fewer.payment_history).toHaveLength(2);
    expect(call("update_reservation_passengers", '{"reservation_id": "ABC123", "passengers": []}')).toBe("Error: number of passengers does not match");
  });

  it("adds certificates under the reference's fixed ids", () => {
    const { call } = session();
    expect(call("send_certificate", '{"user_id": "mia_li_1", "amount": 150}')).toBe("Certificate certificate_3221322 added to user mia_li_1 with amount 150.");
    expect(call("send_certificate", '{"user_id": "mia_li_1", "amount": 50.0}')).toBe("Certificate certificate_3221323 added to user mia_li_1 with amount 50.0.");
  });
});

describe("searching and the small tools", () => {
  it("lists direct and one-stop flights with the date's data merged in", () => {
    const { call } = session();
    const direct = JSON.parse(call("search_direct_flight", '{"origin": "JFK", "destination": "SEA", "date": "2024-05-20"}')) as Array<Record<string, unknown>>;
    expect(direct.map((flight) => [flight.flight_number, flight.status, Object.keys(flight).includes("dates")])).toEqual([["HAT001", "available", false]]);
    const onestop = JSON.parse(call("search_onestop_flight", '{"origin": "JFK", "destination": "JFK", "date": "2024-05-20"}')) as Array<Array<Record<string, unknown>>>;
    expect(onestop.map((pair) => pair.map((flight) => `${String(flight.flight_number)}@${String(flight.date)}`))).toEqual([["HAT001@2024-05-20", "HAT002@2024-05-20"]]);
  });

  it("calculates like Python: always a float, rounded to two places", () => {
    const { call } = session();
    expect(call("calculate", '{"expression": "2 + 3"}')).toBe("5.0");
    expect(call("calculate", '{"expression": "10 / 3"}')).toBe("3.33");
    expect(call("calculate", '{"expression": "1 / 0"}')).toBe("Error: division by zero");
    expect(call("calculate", '{"expression": "2 ^ 3"}')).toBe("Error: invalid characters in expression");
    expect(call("think", '{"thought": "hm"}')).toBe("");
    expect(call("transfer_to_human_agents", '{"summary": "s"}')).toBe("Transfer successful");
  });

  it("gives every task its own copy of the data", () => {
    const first = session();
    first.call("cancel_reservation", '{"reservation_id": "ABC123"}');
    const second = session();
    expect(second.call("get_reservation_details", '{"reservation_id": "ABC123"}')).not.toContain("cancelled");
    expect(dumpPythonJson((second.data.get("users") as PyDict).get("mia_li_1") ?? null)).toContain('"gift_card_1": {"source": "gift_card", "amount": 100');
  });
});
