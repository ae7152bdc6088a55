import { assembleAgent } from "../../agents/assemble-agent.js";
import { createSkillsPolicy } from "../../skills/create-skills-policy.js";
import { renderSkillBody } from "../../skills/skill-messages.js";
import type { SkillCatalog } from "../../skills/skill.js";
import { getTokenCounter } from "../../tokens/get-token-counter.js";
import { createQwen3PromptTokens } from "../../tokens/prompt-tokens.js";
import type { ScriptedTurn } from "../../providers/scripted/index.js";
import type { ModelRequest, ToolDefinition } from "../../types/index.js";
import { toBenchTools } from "./disclosure-catalog.js";
import { counterIds, fixedClock } from "./run-cache-safety.js";
import { createWireProvider } from "./wire-provider.js";

export interface TokenArm {
  /** Exact Qwen3 prompt tokens of each model call (chat template + tokenizer). */
  perCall: number[];
  total: number;
  /** Tokens of the first call's prompt before the first message: system prompt and tool definitions. */
  prefixTokens: number;
}

export interface TokenComparisonRow {
  tools: number;
  /** Of those, copies of real definitions under numbered names (past the real ones). */
  copies: number;
  inline: TokenArm;
  disclosure: TokenArm;
  /** disclosure.total / inline.total. */
  ratio: number;
}

const baseSystem = "You are a careful assistant for web testing and travel bookings.";
const task = "Look up reservation 8JX2WO and tell me its flights.";

/**
 * The same task twice: every skill inlined in the system prompt and every tool in `tools`, then
 * progressive disclosure (the skills catalog, every tool deferred behind tool_search/call_tool).
 * Disclosure needs one more call (the search); both arms' prompts are counted exactly with Qwen3.
 */
export function runTokenComparison(input: { skills: SkillCatalog; catalog: readonly ToolDefinition[]; copies: number; target: { name: string; arguments: Record<string, unknown> } }): Promise<TokenComparisonRow> {
  const counter = getTokenCounter("qwen3");
  const render = createQwen3PromptTokens(counter);
  const measure = (requests: readonly ModelRequest[]): TokenArm => {
    const perCall = requests.map((request) => render(request).total);
    const first = requests[0];
    const prefixTokens = first ? render({ ...first, messages: [] }).total : 0;
    return { perCall, total: perCall.reduce((sum, value) => sum + value, 0), prefixTokens };
  };
  const answer = "Reservation 8JX2WO: two flights.";
  const run = async (arm: "inline" | "disclosure"): Promise<TokenArm> => {
    const turns: ScriptedTurn[] =
      arm === "inline"
        ? [{ toolCalls: [{ name: input.target.name, arguments: input.target.arguments }] }, answer]
        : [
            { toolCalls: [{ name: "tool_search", arguments: { query: "reservation details" } }] },
            { toolCalls: [{ name: "call_tool", arguments: { name: input.target.name, arguments: input.target.arguments } }] },
            answer,
          ];
    const provider = createWireProvider(turns);
    const inlined = input.skills.skills.map((skill) => renderSkillBody(skill)).join("\n\n");
    // The disclosure arm's tools are marked deferred: assembling adds the tool-search policy for them.
    const { agent } = await assembleAgent({
      provider,
      system: arm === "inline" ? `${baseSystem}\n\n${inlined}` : baseSystem,
      ...(arm === "disclosure" ? { tools: toBenchTools(input.catalog, true), policies: [createSkillsPolicy(input.skills)] } : { tools: toBenchTools(input.catalog, false) }),
      prefixGuard: false,
      runtime: { clock: fixedClock(), createId: counterIds() },
    });
    const result = await agent.run(task).result();
    if (result.stopReason !== "final_answer") throw new Error(`The ${arm} arm stopped with ${result.stopReason}.`);
    return measure(provider.requests);
  };
  return (async () => {
    const inline = await run("inline");
    const disclosure = await run("disclosure");
    return { tools: input.catalog.length, copies: input.copies, inline, disclosure, ratio: disclosure.total / inline.total };
  })();
}
