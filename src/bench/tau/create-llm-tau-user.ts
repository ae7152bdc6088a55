import { assembleAgent } from "../../agents/assemble-agent.js";
import type { Provider } from "../../providers/provider.js";
import { addUsage, emptyUsage, type GenerationSettings, type Usage } from "../../types/index.js";
import { stopMarker, type TauUser } from "./tau-user.js";

/** τ-bench's method: a model plays the customer from the task's instruction, one message at a time. */
export function userSimulatorPrompt(instruction: string): string {
  return [
    "You are playing a customer talking to a customer-service agent.",
    "",
    `Your instruction: ${instruction}`,
    "",
    "How to play:",
    "- Write one short message at a time, as the customer would.",
    "- Reveal only what the current step needs; do not hand over the whole instruction at once.",
    "- Never invent facts the instruction does not give (an order id, a date): say you do not know or do not have it.",
    "- Put the instruction in your own words; do not repeat it verbatim.",
    `- When your goal is met (or cannot be met), reply with ${stopMarker} alone to end the conversation.`,
    "- Stay in the personality the instruction describes.",
  ].join("\n");
}

export interface LlmTauUser extends TauUser {
  usage(): Usage;
}

/** A user simulator on any ctxkit provider: a tool-less agent whose trajectory is the conversation seen from the customer's side. */
export function createLlmTauUser(provider: Provider, instruction: string, settings?: GenerationSettings): LlmTauUser {
  // Tool-less: the safety nets (tool-output cap, repeated-call limit) have nothing to act on.
  const assembled = assembleAgent({ provider, system: userSimulatorPrompt(instruction), prefixGuard: false, ...(settings ? { settings } : {}), defaults: false, runtime: { maxIterations: 1 } });
  let usage = emptyUsage();
  const say = async (text: string) => {
    const { agent } = await assembled;
    const result = await agent.run(text).result();
    usage = addUsage(usage, result.usage);
    // A failed simulator call ends the dialogue rather than feeding the agent an empty message.
    return result.stopReason === "final_answer" ? result.finalText : stopMarker;
  };
  return {
    start: () => say("Hi! How can I help you today?"),
    reply: (agentMessage) => say(agentMessage),
    usage: () => usage,
  };
}
