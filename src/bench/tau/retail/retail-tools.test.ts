import { describe, expect, it } from "vitest";
import { invokeTauTool } from "../invoke-tau-tool.js";
import { retailFixture, kwargs } from "../test-support/tau-fixtures.js";

const domain = retailFixture();

function session() {
  const data = domain.freshData();
  const call = (name: string, args: string) => invokeTauTool(domain.tools, data, name, kwargs(args));
  const methods = () => (JSON.parse(call("get_user_details", '{"user_id": "yusuf_1"}')) as { payment_methods: Record<string, { balance?: number }> }).payment_methods;
  return { call, methods };
}

describe("pending orders", () => {
  it("cancels with a valid reason and refunds a gift card at once, rounded to cents", () => {
    const { call, methods } = session();
    expect(call("cancel_pending_order", '{"order_id": "#W1", "reason": "changed my mind"}')).toBe("Error: invalid reason");
    const order = call("cancel_pending_order", '{"order_id": "#W1", "reason": "no longer needed"}');
    expect(order).toContain('"status": "cancelled", "payment_history": [{"transaction_type": "payment", "amount": 99.98, "payment_method_id": "gift_card_9"}, {"transaction_type": "refund", "amount": 99.98, "payment_method_id": "gift_card_9"}], "cancel_reason": "no longer needed"}');
    expect(methods().gift_card_9?.balance).toBe(109.99);
    expect(call("cancel_pending_order", '{"order_id": "#W1", "reason": "no longer needed"}')).toBe("Error: non-pending order cannot be cancelled");
  });

  it("swaps items of a pending order, one of two identical items at a time, recording the unrounded difference", () => {
    const { call, methods } = session();
    expect(call("modify_pending_order_items", '{"order_id": "#W1", "item_ids": ["1001"], "new_item_ids": ["1003"], "payment_method_id": "credit_card_9"}')).toBe("Error: new item 1003 not found or available");
    expect(call("modify_pending_order_items", '{"order_id": "#W1", "item_ids": ["1001", "1001", "1001"], "new_item_ids": ["1002", "1002", "1002"], "payment_method_id": "credit_card_9"}')).toBe("Error: 1001 not found");
    expect(call("modify_pending_order_items", '{"order_id": "#W1", "item_ids": ["1001"], "new_item_ids": ["1004"], "payment_method_id": "gift_card_9"}')).toBe("Error: insufficient gift card balance to pay for the new item");
    const order = JSON.parse(call("modify_pending_order_items", '{"order_id": "#W1", "item_ids": ["1001"], "new_item_ids": ["1002"], "payment_method_id": "gift_card_9"}')) as {
      status: string; items: Array<{ item_id: string; price: number }>; payment_history: Array<{ transaction_type: string; amount: number }>;
    };
    expect(order.status).toBe("pending (item modified)");
    expect(order.items.map((item) => item.item_id)).toEqual(["1002", "1001"]);
    expect(order.payment_history.at(-1)).toEqual({ transaction_type: "payment", amount: 59.5 - 49.99, payment_method_id: "gift_card_9" });
    expect(methods().gift_card_9?.balance).toBe(0.5);
    expect(call("modify_pending_order_items", '{"order_id": "#W1", "item_ids": ["1001"], "new_item_ids": ["1002"], "payment_method_id": "credit_card_9"}')).toBe("Error: non-pending order cannot be modified");
  });

  it("moves the payment to another method, refunding the old gift card", () => {
    const { call, methods } = session();
    expect(call("modify_pending_order_payment", '{"order_id": "#W1", "payment_method_id": "gift_card_9"}')).toBe("Error: the new payment method should be different from the current one");
    const order = JSON.parse(call("modify_pending_order_payment", '{"order_id": "#W1", "payment_method_id": "paypal_9"}')) as { payment_history: unknown[] };
    expect(order.payment_history).toHaveLength(3);
    expect(methods().gift_card_9?.balance).toBe(109.99);
    expect(call("modify_pending_order_payment", '{"order_id": "#W1", "payment_method_id": "credit_card_9"}')).toBe("Error: there should be exactly one payment for a pending order");
  });

  it("writes a new address in the reference's field order", () => {
    const { call } = session();
    const output = call("modify_pending_order_address", '{"order_id": "#W1", "address1": "2 Elm", "address2": "", "city": "Boulder", "state": "CO", "country": "USA", "zip": "80301"}');
    expect(output).toContain('"address": {"address1": "2 Elm", "address2": "", "city": "Boulder", "state": "CO", "country": "USA", "zip": "80301"}');
    expect(call("modify_pending_order_address", '{"order_id": "#W2", "address1": "", "address2": "", "city": "", "state": "", "country": "", "zip": ""}')).toBe("Error: non-pending order cannot be modified");
  });
});

describe("delivered orders", () => {
  it("exchanges delivered items for available variants of the same product, with the rounded difference", () => {
    const { call } = session();
    expect(call("exchange_delivered_order_items", '{"order_id": "#W1", "item_ids": ["1001"], "new_item_ids": ["1002"], "payment_method_id": "credit_card_9"}')).toBe("Error: non-delivered order cannot be exchanged");
    expect(call("exchange_delivered_order_items", '{"order_id": "#W2", "item_ids": ["1002"], "new_item_ids": [], "payment_method_id": "credit_card_9"}')).toBe("Error: the number of items to be exchanged should match");
    const output = call("exchange_delivered_order_items", '{"order_id": "#W2", "item_ids": ["1002"], "new_item_ids": ["1001"], "payment_method_id": "credit_card_9"}');
    // An existing key keeps its place (status), new keys go to the end, as in a Python dict.
    expect(output).toContain('"status": "exchange requested", "payment_history": [');
    expect(output).toContain('}], "exchange_items": ["1002"], "exchange_new_items": ["1001"], "exchange_payment_method_id": "credit_card_9", "exchange_price_difference": -9.51}');
  });

  it("returns only to the original method or a gift card", () => {
    const { call } = session();
    expect(call("return_delivered_order_items", '{"order_id": "#W2", "item_ids": ["1002"], "payment_method_id": "paypal_9"}')).toBe("Error: payment method should be either the original payment method or a gift card");
    expect(call("return_delivered_order_items", '{"order_id": "#W2", "item_ids": ["9999"], "payment_method_id": "credit_card_9"}')).toBe("Error: some item not found");
    expect(call("return_delivered_order_items", '{"order_id": "#W2", "item_ids": ["1002"], "payment_method_id": "gift_card_9"}')).toMatch(/"status": "return requested", "payment_history": .*\}\], "return_items": \["1002"\], "return_payment_method_id": "gift_card_9"\}$/);
    expect(call("return_delivered_order_items", '{"order_id": "#W1", "item_ids": ["1001"], "payment_method_id": "gift_card_9"}')).toBe("Error: non-delivered order cannot be returned");
  });
});

describe("lookups", () => {
  it("finds users case-insensitively and keeps product ids in insertion order", () => {
    const { call } = session();
    expect(call("find_user_id_by_email", '{"email": "yusuf.rossi@EXAMPLE.com"}')).toBe("yusuf_1");
    expect(call("find_user_id_by_name_zip", '{"first_name": "yusuf", "last_name": "ROSSI", "zip": "80202"}')).toBe("yusuf_1");
    expect(call("find_user_id_by_name_zip", '{"first_name": "yusuf", "last_name": "rossi", "zip": "00000"}')).toBe("Error: user not found");
    expect(call("list_all_product_types", "{}")).toBe('{"Desk": "7", "Lamp": "100"}');
    expect(call("get_product_details", '{"product_id": "100"}')).toMatch(/^\{"name": "Lamp", "product_id": "100", "variants": \{"1001": .*"price": 45\.0\}/);
    expect(call("get_product_details", '{"product_id": "1001"}')).toBe("Error: product not found");
  });

  it("reports a KeyError the way Python prints it", () => {
    const { call } = session();
    expect(call("get_order_details", '{"order_id": "#W9"}')).toBe("Error: order not found");
    expect(call("exchange_delivered_order_items", '{"order_id": "#W2", "item_ids": [], "new_item_ids": [], "payment_method_id": "amex_1"}')).toBe("Error: payment method not found");
    expect(call("modify_user_address", '{"user_id": "yusuf_1", "address1": "x"}')).toBe(
      "Error: ModifyUserAddress.invoke() missing 5 required positional arguments: 'address2', 'city', 'state', 'country', and 'zip'",
    );
  });
});
