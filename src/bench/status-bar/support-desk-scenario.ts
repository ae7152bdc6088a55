import type { ScriptedToolCall, ScriptedTurn } from "../../providers/scripted/scripted-turn.js";
import type { StatusBarLimit } from "../../context/status-bar/status-bar-settings.js";

export const supportDeskSystemPrompt =
  "You are a customer-service agent who chases refunds for the user by phone and web search. " +
  "Never call the same company more than 3 times; when that limit is reached, tell the user instead of calling.";

export const supportDeskRequest = "Help me get the refund for my cancelled Xfinity plan (account ACC-7).";

/** The declared limit of the scenario: three calls per company. */
export const supportDeskLimits: StatusBarLimit[] = [{ tool: "phone_call", argument: "company", max: 3 }];

const todoPlan = {
  items: [
    { id: "1", content: "Call Xfinity about the refund", status: "in_progress" },
    { id: "2", content: "Check the usual refund time", status: "pending" },
    { id: "3", content: "Report back to the user", status: "pending" },
  ],
};

/**
 * The tool calls of a long scripted run, one list per model call: a TODO plan, then a repeating mix
 * of phone calls to two companies, searches, a lookup that keeps failing with the same arguments,
 * TODO updates and a parallel pair; the last call answers. Tests replay this plan to know the true
 * counts the status bar must show.
 */
export function supportDeskCallPlan(calls: number): ScriptedToolCall[][] {
  const plan: ScriptedToolCall[][] = [[{ name: "rewrite_todo_list", arguments: todoPlan }]];
  let swaps = 0;
  for (let index = 1; index < calls - 1; index++) {
    switch (index % 6) {
      case 0:
        plan.push([{ name: "phone_call", arguments: { company: "Xfinity", purpose: `refund follow-up ${index}` } }]);
        break;
      case 1:
        plan.push([{ name: "web_search", arguments: { query: `refund time ${index}` } }]);
        break;
      case 2:
        plan.push([{ name: "lookup_account", arguments: { account_id: "xfinity-7" } }]);
        break;
      case 3:
        plan.push([{ name: "phone_call", arguments: { company: "Comcast", purpose: "billing question" } }]);
        break;
      case 4: {
        const [start, pause] = swaps++ % 2 === 0 ? ["2", "1"] : ["1", "2"];
        plan.push([{ name: "update_todo_status", arguments: { updates: [{ id: pause, status: "pending" }, { id: start, status: "in_progress" }] } }]);
        break;
      }
      default:
        plan.push([
          { name: "web_search", arguments: { query: `xfinity refund ${index}` } },
          { name: "lookup_account", arguments: { account_id: "ACC-7" } },
        ]);
    }
  }
  return plan;
}

/** The scripted model's turns for the plan, ending with an answer. */
export function supportDeskTurns(calls: number): ScriptedTurn[] {
  return [...supportDeskCallPlan(calls).map((toolCalls): ScriptedTurn => ({ toolCalls })), "The refund is being processed; Xfinity expects it within 10 business days."];
}
