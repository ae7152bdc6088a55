import { calculateTool, thinkTool, transferToHumanAgentsTool } from "../common-tools.js";
import type { TauToolImplementation } from "../tau-tool-implementation.js";
import { bookReservationTool } from "./book-reservation-tool.js";
import { getReservationDetailsTool, getUserDetailsTool, listAllAirportsTool, searchDirectFlightTool, searchOnestopFlightTool } from "./airline-lookup-tools.js";
import {
  cancelReservationTool,
  sendCertificateTool,
  updateReservationBaggagesTool,
  updateReservationFlightsTool,
  updateReservationPassengersTool,
} from "./reservation-change-tools.js";

/** The 14 airline tools, in the reference's order. */
export const airlineTools: readonly TauToolImplementation[] = [
  bookReservationTool,
  calculateTool,
  cancelReservationTool,
  getReservationDetailsTool,
  getUserDetailsTool,
  listAllAirportsTool,
  searchDirectFlightTool,
  searchOnestopFlightTool,
  sendCertificateTool,
  thinkTool,
  transferToHumanAgentsTool,
  updateReservationBaggagesTool,
  updateReservationFlightsTool,
  updateReservationPassengersTool,
];
