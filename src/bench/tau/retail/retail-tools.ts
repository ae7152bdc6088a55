import { calculateTool, thinkTool, transferToHumanAgentsTool } from "../common-tools.js";
import type { TauToolImplementation } from "../tau-tool-implementation.js";
import { exchangeDeliveredOrderItemsTool, modifyPendingOrderItemsTool, returnDeliveredOrderItemsTool } from "./item-change-tools.js";
import { cancelPendingOrderTool, modifyPendingOrderAddressTool, modifyPendingOrderPaymentTool, modifyUserAddressTool } from "./order-change-tools.js";
import {
  findUserIdByEmailTool,
  findUserIdByNameZipTool,
  getOrderDetailsTool,
  getProductDetailsTool,
  getRetailUserDetailsTool,
  listAllProductTypesTool,
} from "./retail-lookup-tools.js";

/** The 16 retail tools, in the reference's order. */
export const retailTools: readonly TauToolImplementation[] = [
  calculateTool,
  cancelPendingOrderTool,
  exchangeDeliveredOrderItemsTool,
  findUserIdByEmailTool,
  findUserIdByNameZipTool,
  getOrderDetailsTool,
  getProductDetailsTool,
  getRetailUserDetailsTool,
  listAllProductTypesTool,
  modifyPendingOrderAddressTool,
  modifyPendingOrderItemsTool,
  modifyPendingOrderPaymentTool,
  modifyUserAddressTool,
  returnDeliveredOrderItemsTool,
  thinkTool,
  transferToHumanAgentsTool,
];
