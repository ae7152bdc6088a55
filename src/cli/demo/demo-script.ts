import type { ScriptedTurn } from "../../providers/scripted/index.js";
import { buggyDiscountLine, fixedDiscountLine } from "./create-demo-workspace.js";

export const demoTask =
  "Checkout totals are wrong when a discount is applied. Find the bug, fix it, and confirm the pricing checks pass.";

export const demoSystemPrompt = `You are a careful coding agent working in a small JavaScript repository.
Use the tools to inspect files before changing them, keep edits minimal, and verify fixes by running the checks.`;

/**
 * The demo's model turns, written by hand (this is a SCRIPTED model, not a real one). Everything
 * they trigger is real: the tools run on real files, results flow through the real loop, and every
 * request is built and stored exactly as it would be for a live model.
 */
export const demoTurns: ScriptedTurn[] = [
  {
    thinking: "Start by finding where discounts are computed.",
    text: "Let me find where discounts are applied.",
    toolCalls: [{ name: "grep", arguments: { pattern: "applyDiscount", include: "*.js" } }],
  },
  {
    text: "Reading the discount code and the pricing config.",
    toolCalls: [
      { name: "read_file", arguments: { path: "src/discount.js" } },
      { name: "read_file", arguments: { path: "src/pricing.config.json" } },
    ],
  },
  {
    thinking: "The config file does not exist; look at what is in src/.",
    toolCalls: [{ name: "list_dir", arguments: { path: "src" } }],
  },
  {
    text: "No config file — the logic is all in discount.js. Let me check the server log for pricing errors.",
    toolCalls: [{ name: "read_file", arguments: { path: "logs/server.log" } }],
  },
  {
    thinking: "The log is long and only the first part was shown. Search it for errors instead of paging.",
    toolCalls: [{ name: "grep", arguments: { pattern: "ERROR", path: "logs" } }],
  },
  {
    text:
      "The log shows cart_total=4.00 where 36.00 was expected with a 10% discount: applyDiscount returns the discount " +
      "amount instead of the discounted price. Fixing src/discount.js line 4.",
    toolCalls: [
      {
        name: "edit_file",
        arguments: { path: "src/discount.js", old_string: buggyDiscountLine, new_string: fixedDiscountLine },
      },
    ],
  },
  {
    text: "Running the pricing checks.",
    toolCalls: [{ name: "bash", arguments: { command: "node check.mjs" } }],
  },
  "Fixed. `applyDiscount` in src/discount.js returned `price * (percent / 100)` — the discount amount — instead of the " +
    "discounted price. It now returns `price * (1 - percent / 100)`, which matches the log's expected total (36.00 for " +
    "40.00 at 10%), and `node check.mjs` reports all pricing checks passed.",
];
