import type { SystemPrompt, ToolDefinition } from "../../types/index.js";
import { airlineSopPrompt } from "./airline-sop-prompt.js";
import type { TauDomain } from "./tau-domain.js";
import { CtxkitError } from "../../types/index.js";
import { createUniformSource } from "../../providers/llama/gguf/encode-random-weights.js";

/** Experiment 2-4's arms: one change each against the baseline (the policy as τ-bench sends it). */
export const tauArmNames = ["baseline", "trump", "casual", "randomized-rules", "no-tool-descriptions", "sop"] as const;
export type TauArmName = (typeof tauArmNames)[number];

export interface TauArm {
  system: (policy: string) => string | SystemPrompt;
  describeTool?: (definition: ToolDefinition) => ToolDefinition;
}

const trumpTone =
  "Speak like Donald Trump: hyperbole and supreme confidence in every reply (\"I will get you the greatest flight ever booked, nobody books flights better than me\"). " +
  "Every rule of the policy below still applies in full.";
const casualTone = "Talk in a relaxed, casual, friendly way, with plenty of emoji. Every rule of the policy below still applies in full.";

export function tauArm(name: TauArmName, domain: TauDomain): TauArm {
  switch (name) {
    case "baseline":
      return { system: (policy) => policy };
    case "trump":
      return { system: (policy) => `${trumpTone}\n\n${policy}` };
    case "casual":
      return { system: (policy) => `${casualTone}\n\n${policy}` };
    case "randomized-rules":
      return { system: (policy) => shuffleRules(policy) };
    case "no-tool-descriptions":
      return { system: (policy) => policy, describeTool: withoutDescriptions };
    case "sop": {
      if (domain.name !== "airline") throw new CtxkitError("option_invalid", "The sop arm exists for the airline domain only (its policy was rewritten as a procedure). Leave it out for retail.");
      const prompt = airlineSopPrompt();
      return { system: () => ({ staticText: prompt.staticText }) };
    }
  }
}

/** The same arm for a replay, where the recorded system prompt stands in for the policy. */
export function tauReplayArm(name: TauArmName, domain: TauDomain): { system: (recorded: string) => string | SystemPrompt; describeTool?: (definition: ToolDefinition) => ToolDefinition } {
  return tauArm(name, domain);
}

/**
 * The seed's "information organisation" ablation: every rule kept, the headings dropped, the
 * procedure broken up into an unordered list (a fixed shuffle, so every run sends the same bytes).
 */
export function shuffleRules(policy: string): string {
  const items = policy
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== "" && !block.startsWith("#"))
    .map((block) => block.replace(/^- /, "").replace(/\n\s+- /g, " "));
  // Seeded, so the shuffled arm is the same on every machine.
  const random = createUniformSource(20240515);
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [items[index], items[other]] = [items[other] as string, items[index] as string];
  }
  return `${items.map((item) => `- ${item}`).join("\n")}\n`;
}

/**
 * The seed's tool-description ablation: names, types and enums kept, every description removed.
 * ctxkit refuses a tool without a description, so the tool's own name stands in for it.
 */
export function withoutDescriptions(definition: ToolDefinition): ToolDefinition {
  return { name: definition.name, description: definition.name, parameters: stripDescriptions(definition.parameters) as ToolDefinition["parameters"] };
}

function stripDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(stripDescriptions);
  if (schema === null || typeof schema !== "object") return schema;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "description" && typeof value === "string") continue;
    result[key] = key === "properties" && value !== null && typeof value === "object"
      ? Object.fromEntries(Object.entries(value).map(([name, property]) => [name, stripDescriptions(property)]))
      : stripDescriptions(value);
  }
  return result;
}

