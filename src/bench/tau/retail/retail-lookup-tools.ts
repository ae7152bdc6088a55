import { contains, dictItem, item, lower } from "../python/py-access.js";
import { readEntries } from "../python/copy-on-read-table.js";
import { dumpPythonJson } from "../python/dump-python-json.js";
import type { PyDict, PyValue } from "../python/py-value.js";
import type { TauToolImplementation } from "../tau-tool-implementation.js";

/** The retail tools that only read: users, orders, products. */
export const findUserIdByEmailTool: TauToolImplementation = {
  name: "find_user_id_by_email",
  className: "FindUserIdByEmail",
  parameters: ["email"],
  invoke(data, args) {
    const email = lower(item(args, "email"));
    for (const [userId, profile] of readEntries(dictItem(data, "users"))) {
      if (lower(item(profile, "email")) === email) return userId;
    }
    return "Error: user not found";
  },
};

export const findUserIdByNameZipTool: TauToolImplementation = {
  name: "find_user_id_by_name_zip",
  className: "FindUserIdByNameZip",
  parameters: ["first_name", "last_name", "zip"],
  invoke(data, args) {
    const firstName = lower(item(args, "first_name"));
    const lastName = lower(item(args, "last_name"));
    const zip = item(args, "zip");
    for (const [userId, profile] of readEntries(dictItem(data, "users"))) {
      const name = dictItem(profile, "name");
      if (lower(item(name, "first_name")) === firstName && lower(item(name, "last_name")) === lastName && item(dictItem(profile, "address"), "zip") === zip) {
        return userId;
      }
    }
    return "Error: user not found";
  },
};

function lookup(table: string, argument: string, notFound: string): (data: PyDict, args: PyDict) => string {
  return (data, args) => {
    const records = dictItem(data, table);
    const key = item(args, argument);
    return contains(records, key) ? dumpPythonJson(item(records, key as string)) : notFound;
  };
}

export const getOrderDetailsTool: TauToolImplementation = {
  name: "get_order_details",
  className: "GetOrderDetails",
  parameters: ["order_id"],
  invoke: lookup("orders", "order_id", "Error: order not found"),
};

export const getProductDetailsTool: TauToolImplementation = {
  name: "get_product_details",
  className: "GetProductDetails",
  parameters: ["product_id"],
  invoke: lookup("products", "product_id", "Error: product not found"),
};

export const getRetailUserDetailsTool: TauToolImplementation = {
  name: "get_user_details",
  className: "GetUserDetails",
  parameters: ["user_id"],
  invoke: lookup("users", "user_id", "Error: user not found"),
};

export const listAllProductTypesTool: TauToolImplementation = {
  name: "list_all_product_types",
  className: "ListAllProductTypes",
  parameters: [],
  invoke(data) {
    const byName = new Map<string, PyValue>();
    for (const [, product] of readEntries(dictItem(data, "products"))) byName.set(String(item(product, "name")), item(product, "product_id"));
    const sorted = [...byName].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return dumpPythonJson(new Map(sorted));
  },
};
