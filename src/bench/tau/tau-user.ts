/**
 * The simulated customer of a τ-bench dialogue. It opens the conversation and answers each agent
 * reply; a message containing `###STOP###` ends the dialogue (τ-bench's convention).
 */
export interface TauUser {
  start(): Promise<string>;
  reply(agentMessage: string): Promise<string>;
  /** What the simulator cost so far, in dollars, when it is a priced model. */
  cost?(): number;
}

export const stopMarker = "###STOP###";

/** A user that says the recorded user turns in order, whatever the agent replies. */
export function createScriptedTauUser(turns: readonly string[]): TauUser {
  let next = 0;
  const say = async () => turns[next++] ?? stopMarker;
  return { start: say, reply: say };
}
