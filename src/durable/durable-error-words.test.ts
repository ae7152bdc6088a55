import { describe, expect, it } from "vitest";
import { toCliMessage } from "../cli/cli-error-message.js";
import { sharedBudgetRefusal } from "./create-durable-provider.js";

// A program calls defineBudget and submit({ budgetScope }); a person at the CLI passes flags.
describe("a shared budget's refusal", () => {
  it("names the durable client's options, and the CLI turns them into its flags", () => {
    const message = sharedBudgetRefusal("team", "it has too little left for a call of up to 4096 tokens");
    expect(message).not.toContain("--");
    expect(message).toContain('defineBudget("team", <limitTokens>, <maxCallTokens>)');
    expect(toCliMessage({ code: "budget_exceeded", message })).toBe(
      "The shared budget 'team' cannot cover another model call: it has too little left for a call of up to 4096 tokens. Raise its limit (ctxkit submit --budget-scope team --budget-tokens <n>), or submit with another --budget-scope.",
    );
  });
});
