import { airlineTools } from "../airline/airline-tools.js";
import { parsePythonJson } from "../python/parse-python-json.js";
import type { PyDict } from "../python/py-value.js";
import { retailTools } from "../retail/retail-tools.js";
import { createTauDomain, type TauDomain } from "../tau-domain.js";

/**
 * Small hand-written domains in the shape of τ-bench's data files (same field names and nesting
 * as the corpus' airline/ and retail/ records), for unit tests that must not need the corpus.
 */
const airlineTables = {
  flights: `{
    "HAT001": {"flight_number": "HAT001", "origin": "JFK", "destination": "SEA", "scheduled_departure_time_est": "06:00:00", "scheduled_arrival_time_est": "12:00:00",
      "dates": {"2024-05-20": {"status": "available", "available_seats": {"basic_economy": 5, "economy": 1, "business": 4}, "prices": {"basic_economy": 80, "economy": 150, "business": 400}},
                "2024-05-21": {"status": "cancelled"}}},
    "HAT002": {"flight_number": "HAT002", "origin": "SEA", "destination": "JFK", "scheduled_departure_time_est": "13:00:00", "scheduled_arrival_time_est": "21:00:00",
      "dates": {"2024-05-20": {"status": "available", "available_seats": {"basic_economy": 5, "economy": 9, "business": 4}, "prices": {"basic_economy": 90, "economy": 170, "business": 500}},
                "2024-05-25": {"status": "available", "available_seats": {"basic_economy": 5, "economy": 9, "business": 4}, "prices": {"basic_economy": 95, "economy": 180, "business": 520}}}}
  }`,
  reservations: `{
    "ABC123": {"reservation_id": "ABC123", "user_id": "mia_li_1", "origin": "JFK", "destination": "JFK", "flight_type": "round_trip", "cabin": "economy",
      "flights": [{"origin": "JFK", "destination": "SEA", "flight_number": "HAT001", "date": "2024-05-20", "price": 140}, {"origin": "SEA", "destination": "JFK", "flight_number": "HAT002", "date": "2024-05-25", "price": 160}],
      "passengers": [{"first_name": "Mia", "last_name": "Li", "dob": "1990-04-05"}],
      "payment_history": [{"payment_id": "credit_card_1", "amount": 300}], "created_at": "2024-05-14T10:00:00", "total_baggages": 1, "nonfree_baggages": 0, "insurance": "no"}
  }`,
  users: `{
    "mia_li_1": {"name": {"first_name": "Mia", "last_name": "Li"}, "address": {"address1": "1 Main St", "address2": "", "city": "Austin", "country": "USA", "state": "TX", "zip": "78750"},
      "email": "mia@example.com", "dob": "1990-04-05",
      "payment_methods": {"credit_card_1": {"source": "credit_card", "brand": "visa", "last_four": "7447", "id": "credit_card_1"},
                          "gift_card_1": {"source": "gift_card", "amount": 100, "id": "gift_card_1"},
                          "certificate_1": {"source": "certificate", "amount": 250, "id": "certificate_1"}},
      "saved_passengers": [], "membership": "gold", "reservations": ["ABC123"]}
  }`,
};

const retailTables = {
  orders: `{
    "#W1": {"order_id": "#W1", "user_id": "yusuf_1", "address": {"address1": "1 Oak Rd", "address2": "Apt 2", "city": "Denver", "country": "USA", "state": "CO", "zip": "80202"},
      "items": [{"name": "Lamp", "product_id": "100", "item_id": "1001", "price": 49.99, "options": {"color": "black"}},
                {"name": "Lamp", "product_id": "100", "item_id": "1001", "price": 49.99, "options": {"color": "black"}}],
      "fulfillments": [], "status": "pending",
      "payment_history": [{"transaction_type": "payment", "amount": 99.98, "payment_method_id": "gift_card_9"}]},
    "#W2": {"order_id": "#W2", "user_id": "yusuf_1", "address": {"address1": "1 Oak Rd", "address2": "Apt 2", "city": "Denver", "country": "USA", "state": "CO", "zip": "80202"},
      "items": [{"name": "Lamp", "product_id": "100", "item_id": "1002", "price": 59.5, "options": {"color": "white"}}],
      "fulfillments": [{"tracking_id": ["123"], "item_ids": ["1002"]}], "status": "delivered",
      "payment_history": [{"transaction_type": "payment", "amount": 59.5, "payment_method_id": "credit_card_9"}]}
  }`,
  products: `{
    "100": {"name": "Lamp", "product_id": "100", "variants": {
      "1001": {"item_id": "1001", "options": {"color": "black"}, "available": true, "price": 49.99},
      "1002": {"item_id": "1002", "options": {"color": "white"}, "available": true, "price": 59.5},
      "1003": {"item_id": "1003", "options": {"color": "red"}, "available": false, "price": 45.0},
      "1004": {"item_id": "1004", "options": {"color": "gold"}, "available": true, "price": 159.99}}},
    "7": {"name": "Desk", "product_id": "7", "variants": {}}
  }`,
  users: `{
    "yusuf_1": {"name": {"first_name": "Yusuf", "last_name": "Rossi"}, "address": {"address1": "1 Oak Rd", "address2": "Apt 2", "city": "Denver", "country": "USA", "state": "CO", "zip": "80202"},
      "email": "Yusuf.Rossi@example.com",
      "payment_methods": {"credit_card_9": {"source": "credit_card", "brand": "visa", "last_four": "1111", "id": "credit_card_9"},
                          "gift_card_9": {"source": "gift_card", "balance": 10.01, "id": "gift_card_9"},
                          "paypal_9": {"source": "paypal", "id": "paypal_9"}},
      "orders": ["#W1", "#W2"]}
  }`,
};

function tables(texts: Record<string, string>): Map<string, PyDict> {
  return new Map(Object.entries(texts).map(([name, text]) => [name, parsePythonJson(text) as PyDict]));
}

function definitionsOf(tools: typeof airlineTools) {
  return tools.map((tool) => ({
    name: tool.name,
    description: `The ${tool.name} tool.`,
    parameters: { type: "object", properties: Object.fromEntries(tool.parameters.map((name) => [name, {}])), required: [...tool.parameters] },
  }));
}

export function airlineFixture(): TauDomain {
  return createTauDomain({ name: "airline", tables: tables(airlineTables), wiki: "# Airline policy (fixture)", definitions: definitionsOf(airlineTools) });
}

export function retailFixture(): TauDomain {
  return createTauDomain({ name: "retail", tables: tables(retailTables), wiki: "# Retail policy (fixture)", definitions: definitionsOf(retailTools) });
}

/** Keyword arguments written as JSON text (so `100.0` stays a float, as a model's arguments would). */
export function kwargs(json: string): PyDict {
  return parsePythonJson(json) as PyDict;
}
