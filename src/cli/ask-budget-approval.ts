import type { BudgetApprovalRequest } from "../types/index.js";
import type { TerminalStyle } from "./terminal-style.js";

export interface BudgetQuestionContext {
  /** Reads the person's answer to an approval question (undefined: no answer could be read). */
  readLine: () => Promise<string | undefined>;
  output: NodeJS.WritableStream;
  style: TerminalStyle;
  /** Whether the turn was stopped (Ctrl-C) while the question waited: `readLine` then gave undefined. */
  interrupted?: () => boolean;
}

/** Asks the person on the terminal whether the run may go over its budget; no answer (no terminal) declines. */
export async function askBudgetApproval(request: BudgetApprovalRequest, context: BudgetQuestionContext): Promise<boolean> {
  const { style, output } = context;
  const lines = request.overruns.map((overrun) => {
    const amount = (value: number) => (overrun.dimension === "tokens" ? `${Math.round(value).toLocaleString("en-US")} tokens` : `$${value.toFixed(4)}`);
    return `  the ${overrun.status.level} would reach up to ${amount(overrun.projected)} of its ${amount(overrun.limit)} budget`;
  });
  output.write(`\n${style.yellow("?")} Go over the budget?\n${lines.join("\n")}\n`);
  while (true) {
    output.write("  [y]es, for the rest of this task / [n]o, stop here: ");
    const answer = await context.readLine();
    if (answer === undefined && context.interrupted?.() === true) {
      output.write("  declined: you stopped the turn\n");
      return false;
    }
    if (answer === undefined) {
      output.write("\n  declined (no answer could be read)\n");
      return false;
    }
    if (/^\s*(y|yes)\s*$/i.test(answer)) return true;
    if (/^\s*(n|no)\s*$/i.test(answer)) return false;
  }
}
