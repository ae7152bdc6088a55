import { contains, dictItem, item, iterate, listItem } from "../python/py-access.js";
import { absolute, add, lessThan, round, subtract } from "../python/python-arithmetic.js";
import { dumpPythonJson } from "../python/dump-python-json.js";
import { numericValue, type PyDict, type PyNumber, type PyValue } from "../python/py-value.js";
import { PythonError } from "../python/python-error.js";
import type { TauToolImplementation } from "../tau-tool-implementation.js";
import { findOrder, firstPayment, hasItems, userPaymentMethods } from "./order-change-tools.js";

/** The retail tools that swap or return items: modify (pending), exchange and return (delivered). */
function firstOrderItem(order: PyDict, itemId: PyValue): PyDict {
  const found = iterate(item(order, "items")).find((orderItem) => item(orderItem, "item_id") === itemId);
  if (found === undefined) throw new PythonError("IndexError", "list index out of range");
  return found as PyDict;
}

function stringList(value: PyValue): PyValue[] {
  return iterate(value);
}

/** Checks the new items and sums `new price - old price`, or returns the reference's refusal. */
function priceDifference(data: PyDict, order: PyDict, itemIds: PyValue[], newItemIds: PyValue[]): PyNumber | string {
  const missing = hasItems(order, itemIds);
  if (missing !== undefined) return `Error: ${String(missing)} not found`;
  if (itemIds.length !== newItemIds.length) return "Error: the number of items to be exchanged should match";
  const products = dictItem(data, "products");
  let difference: PyNumber = 0;
  for (const [index, itemId] of itemIds.entries()) {
    const newItemId = newItemIds[index] ?? null;
    const orderItem = firstOrderItem(order, itemId);
    const variants = dictItem(dictItem(products, item(orderItem, "product_id") as string), "variants");
    if (!(contains(variants, newItemId) && item(dictItem(variants, newItemId as string), "available") === true)) {
      return `Error: new item ${String(newItemId)} not found or available`;
    }
    difference = add(difference, subtract(item(dictItem(variants, newItemId as string), "price") as PyNumber, item(orderItem, "price") as PyNumber));
  }
  return difference;
}

function sortedIds(ids: PyValue[]): PyValue[] {
  return [...ids].sort((left, right) => (String(left) < String(right) ? -1 : String(left) > String(right) ? 1 : 0));
}

export const modifyPendingOrderItemsTool: TauToolImplementation = {
  name: "modify_pending_order_items",
  className: "ModifyPendingOrderItems",
  parameters: ["order_id", "item_ids", "new_item_ids", "payment_method_id"],
  invoke(data, args) {
    const order = findOrder(data, args);
    if (typeof order === "string") return order;
    if (item(order, "status") !== "pending") return "Error: non-pending order cannot be modified";
    const itemIds = stringList(item(args, "item_ids"));
    const newItemIds = stringList(item(args, "new_item_ids"));
    const difference = priceDifference(data, order, itemIds, newItemIds);
    if (typeof difference === "string") return difference;
    const methods = userPaymentMethods(data, order);
    const paymentMethodId = item(args, "payment_method_id");
    if (!contains(methods, paymentMethodId)) return "Error: payment method not found";
    const method = dictItem(methods, paymentMethodId as string);
    if (item(method, "source") === "gift_card" && lessThan(item(method, "balance"), difference)) {
      return "Error: insufficient gift card balance to pay for the new item";
    }
    // Unlike exchanges, the reference records the unrounded difference here.
    listItem(order, "payment_history").push(new Map<string, PyValue>([
      ["transaction_type", numericValue(difference) > 0 ? "payment" : "refund"],
      ["amount", absolute(difference)],
      ["payment_method_id", paymentMethodId],
    ]));
    if (item(method, "source") === "gift_card") method.set("balance", round(subtract(item(method, "balance") as PyNumber, difference), 2));
    const products = dictItem(data, "products");
    for (const [index, itemId] of itemIds.entries()) {
      const newItemId = newItemIds[index] as string;
      const orderItem = firstOrderItem(order, itemId);
      const variant = dictItem(dictItem(dictItem(products, item(orderItem, "product_id") as string), "variants"), newItemId);
      orderItem.set("item_id", newItemId);
      orderItem.set("price", item(variant, "price"));
      orderItem.set("options", item(variant, "options"));
    }
    order.set("status", "pending (item modified)");
    return dumpPythonJson(order);
  },
};

export const exchangeDeliveredOrderItemsTool: TauToolImplementation = {
  name: "exchange_delivered_order_items",
  className: "ExchangeDeliveredOrderItems",
  parameters: ["order_id", "item_ids", "new_item_ids", "payment_method_id"],
  invoke(data, args) {
    const order = findOrder(data, args);
    if (typeof order === "string") return order;
    if (item(order, "status") !== "delivered") return "Error: non-delivered order cannot be exchanged";
    const itemIds = stringList(item(args, "item_ids"));
    const newItemIds = stringList(item(args, "new_item_ids"));
    const unrounded = priceDifference(data, order, itemIds, newItemIds);
    if (typeof unrounded === "string") return unrounded;
    const difference = round(unrounded, 2);
    const methods = userPaymentMethods(data, order);
    const paymentMethodId = item(args, "payment_method_id");
    if (!contains(methods, paymentMethodId)) return "Error: payment method not found";
    const method = dictItem(methods, paymentMethodId as string);
    if (item(method, "source") === "gift_card" && lessThan(item(method, "balance"), difference)) {
      return "Error: insufficient gift card balance to pay for the price difference";
    }
    order.set("status", "exchange requested");
    order.set("exchange_items", sortedIds(itemIds));
    order.set("exchange_new_items", sortedIds(newItemIds));
    order.set("exchange_payment_method_id", paymentMethodId);
    order.set("exchange_price_difference", difference);
    return dumpPythonJson(order);
  },
};

export const returnDeliveredOrderItemsTool: TauToolImplementation = {
  name: "return_delivered_order_items",
  className: "ReturnDeliveredOrderItems",
  parameters: ["order_id", "item_ids", "payment_method_id"],
  invoke(data, args) {
    const order = findOrder(data, args);
    if (typeof order === "string") return order;
    if (item(order, "status") !== "delivered") return "Error: non-delivered order cannot be returned";
    const paymentMethodId = item(args, "payment_method_id");
    if (!contains(userPaymentMethods(data, order), paymentMethodId)) return "Error: payment method not found";
    if (!contains(paymentMethodId, "gift_card") && paymentMethodId !== item(firstPayment(order), "payment_method_id")) {
      return "Error: payment method should be either the original payment method or a gift card";
    }
    const itemIds = stringList(item(args, "item_ids"));
    if (hasItems(order, itemIds) !== undefined) return "Error: some item not found";
    order.set("status", "return requested");
    order.set("return_items", sortedIds(itemIds));
    order.set("return_payment_method_id", paymentMethodId);
    return dumpPythonJson(order);
  },
};
