import { contains, dictItem, item, iterate, listItem } from "../python/py-access.js";
import { add, lessThan, round, subtract } from "../python/python-arithmetic.js";
import { dumpPythonJson } from "../python/dump-python-json.js";
import type { PyDict, PyNumber, PyValue } from "../python/py-value.js";
import { PythonError } from "../python/python-error.js";
import type { TauToolImplementation } from "../tau-tool-implementation.js";

/** Shared steps of the retail tools that change orders and users. */
export function findOrder(data: PyDict, args: PyDict): PyDict | string {
  const orders = dictItem(data, "orders");
  const orderId = item(args, "order_id");
  if (!contains(orders, orderId)) return "Error: order not found";
  return dictItem(orders, orderId as string);
}

export function userPaymentMethods(data: PyDict, order: PyDict): PyDict {
  return dictItem(dictItem(dictItem(data, "users"), item(order, "user_id") as string), "payment_methods");
}

/** `payment_history[0]`, with Python's IndexError on an empty history. */
export function firstPayment(order: PyDict): PyValue {
  const history = listItem(order, "payment_history");
  if (history.length === 0) throw new PythonError("IndexError", "list index out of range");
  return history[0] ?? null;
}

/** `balance += amount; balance = round(balance, 2)` on a gift card. */
export function changeBalance(method: PyDict, amount: PyNumber): void {
  method.set("balance", round(add(item(method, "balance") as PyNumber, amount), 2));
}

/** Whether each listed id occurs in the order at least as often as in the list (duplicates allowed). */
export function hasItems(order: PyDict, itemIds: PyValue[]): PyValue | undefined {
  const orderItemIds = iterate(item(order, "items")).map((orderItem) => item(orderItem, "item_id"));
  const count = (list: PyValue[], id: PyValue) => list.filter((entry) => entry === id).length;
  return itemIds.find((id) => count(itemIds, id) > count(orderItemIds, id));
}

export function address(args: PyDict): PyDict {
  return new Map(["address1", "address2", "city", "state", "country", "zip"].map((key) => [key, item(args, key)]));
}

export const cancelPendingOrderTool: TauToolImplementation = {
  name: "cancel_pending_order",
  className: "CancelPendingOrder",
  parameters: ["order_id", "reason"],
  invoke(data, args) {
    const order = findOrder(data, args);
    if (typeof order === "string") return order;
    if (item(order, "status") !== "pending") return "Error: non-pending order cannot be cancelled";
    const reason = item(args, "reason");
    if (reason !== "no longer needed" && reason !== "ordered by mistake") return "Error: invalid reason";
    const refunds: PyValue[] = [];
    for (const payment of iterate(item(order, "payment_history"))) {
      const paymentId = item(payment, "payment_method_id");
      const amount = item(payment, "amount") as PyNumber;
      refunds.push(new Map<string, PyValue>([["transaction_type", "refund"], ["amount", amount], ["payment_method_id", paymentId]]));
      // Gift cards are refunded at once; other methods later, outside the data.
      if (contains(paymentId, "gift_card")) changeBalance(dictItem(userPaymentMethods(data, order), paymentId as string), amount);
    }
    order.set("status", "cancelled");
    order.set("cancel_reason", reason);
    listItem(order, "payment_history").push(...refunds);
    return dumpPythonJson(order);
  },
};

export const modifyPendingOrderAddressTool: TauToolImplementation = {
  name: "modify_pending_order_address",
  className: "ModifyPendingOrderAddress",
  parameters: ["order_id", "address1", "address2", "city", "state", "country", "zip"],
  invoke(data, args) {
    const order = findOrder(data, args);
    if (typeof order === "string") return order;
    if (item(order, "status") !== "pending") return "Error: non-pending order cannot be modified";
    order.set("address", address(args));
    return dumpPythonJson(order);
  },
};

export const modifyPendingOrderPaymentTool: TauToolImplementation = {
  name: "modify_pending_order_payment",
  className: "ModifyPendingOrderPayment",
  parameters: ["order_id", "payment_method_id"],
  invoke(data, args) {
    const order = findOrder(data, args);
    if (typeof order === "string") return order;
    if (item(order, "status") !== "pending") return "Error: non-pending order cannot be modified";
    const methods = userPaymentMethods(data, order);
    const paymentMethodId = item(args, "payment_method_id");
    if (!contains(methods, paymentMethodId)) return "Error: payment method not found";
    const history = listItem(order, "payment_history");
    if (history.length > 1 || item(firstPayment(order), "transaction_type") !== "payment") return "Error: there should be exactly one payment for a pending order";
    const oldMethodId = item(firstPayment(order), "payment_method_id");
    if (oldMethodId === paymentMethodId) return "Error: the new payment method should be different from the current one";
    const amount = item(firstPayment(order), "amount") as PyNumber;
    const method = dictItem(methods, paymentMethodId as string);
    if (item(method, "source") === "gift_card" && lessThan(item(method, "balance"), amount)) {
      return "Error: insufficient gift card balance to pay for the order";
    }
    history.push(
      new Map<string, PyValue>([["transaction_type", "payment"], ["amount", amount], ["payment_method_id", paymentMethodId]]),
      new Map<string, PyValue>([["transaction_type", "refund"], ["amount", amount], ["payment_method_id", oldMethodId]]),
    );
    if (item(method, "source") === "gift_card") method.set("balance", round(subtract(item(method, "balance") as PyNumber, amount), 2));
    if (contains(oldMethodId, "gift_card")) changeBalance(dictItem(methods, oldMethodId as string), amount);
    return dumpPythonJson(order);
  },
};

export const modifyUserAddressTool: TauToolImplementation = {
  name: "modify_user_address",
  className: "ModifyUserAddress",
  parameters: ["user_id", "address1", "address2", "city", "state", "country", "zip"],
  invoke(data, args) {
    const users = dictItem(data, "users");
    const userId = item(args, "user_id");
    if (!contains(users, userId)) return "Error: user not found";
    const user = dictItem(users, userId as string);
    user.set("address", address(args));
    return dumpPythonJson(user);
  },
};
