import type { PyDict } from "./python/py-value.js";
import { invokeTauTool } from "./invoke-tau-tool.js";
import type { TauDomain } from "./tau-domain.js";
import type { TauAction } from "./tau-task.js";

/** Tools that end a dialogue; the reference skips them when it replays gold actions for the reward. */
export const terminateToolNames: ReadonlySet<string> = new Set(["transfer_to_human_agents"]);

export interface TauActionsRun {
  /** Each action's observation, in order. */
  outputs: string[];
  /** The data after the actions. */
  data: PyDict;
}

/**
 * Runs actions on a fresh copy of the domain's data, as the reference's `Env.step` would.
 * `skipTerminating` leaves out `transfer_to_human_agents`, as the reward computation does.
 */
export function runTauActions(domain: TauDomain, actions: readonly TauAction[], options: { skipTerminating?: boolean } = {}): TauActionsRun {
  const data = domain.freshData();
  const outputs: string[] = [];
  for (const action of actions) {
    if (options.skipTerminating === true && terminateToolNames.has(action.name)) continue;
    outputs.push(invokeTauTool(domain.tools, data, action.name, action.kwargs));
  }
  return { outputs, data };
}
