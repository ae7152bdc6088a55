import { assembleAgent, createExploreAgent, createForkAgent, createTaskTool } from "../../agents/index.js";
import { createStatusBar } from "../../context/status-bar/index.js";
import { createOpenAICompatible } from "../../providers/openai-compatible/index.js";
import { estimateCost, findModelPricing } from "../../tokens/pricing.js";
import { startOpenAIModelServer } from "../../testing/openai-model-server.js";
import { createWorkspaceTools } from "../../tools/builtin/index.js";
import { ConfigError, type Usage } from "../../types/index.js";
import { isolationQueries, type IsolationQuery } from "./isolation-queries.js";
import { createScriptedSearcher, type IsolationArm } from "./scripted-searcher.js";

export const isolationArms: readonly IsolationArm[] = ["main", "explore", "fork"];

export interface DelegationRun {
  query: string;
  arm: IsolationArm;
  /** Prompt tokens of the main agent's last call: its context once the task is done. */
  mainContextTokens: number;
  mainCalls: number;
  /** Every call's prompt and output tokens, children's included. */
  promptTokens: number;
  cachedTokens: number;
  outputTokens: number;
  totalTokens: number;
  childCalls: number;
  /** Cached share of the child's first call (undefined in arm `main`, which starts no child). */
  childFirstCallCachedShare?: number;
  /** In dollars with the price list's prices (undefined without one). */
  cost?: number;
  answer: string;
}

export interface DelegationArmTotals {
  arm: IsolationArm;
  runs: number;
  meanMainContextTokens: number;
  meanTotalTokens: number;
  cachedShare: number;
  meanChildFirstCallCachedShare?: number;
  meanCost?: number;
}

export interface DelegationBenchResult {
  pricingModel: string;
  runs: DelegationRun[];
  arms: DelegationArmTotals[];
}

export interface DelegationBenchOptions {
  /** A folder holding the code base to search under `src/` (a temporary copy: nothing is written to it). */
  workspace: string;
  /** The price list to cost the calls with (default gpt-4.1, whose cache reads cost a quarter). */
  pricingModel?: string;
  /** Only the first n queries. */
  limit?: number;
}

const mainSystemPrompt = "You are a coding agent working in the user's workspace through tools. Answer with the files and lines asked for.";

/**
 * Arms (a) main, (b) explore, (c) fork of the isolation bench: the same "find where X is handled"
 * task over the same code base, through a loopback OpenAI-compatible server whose prompt cache
 * keeps every earlier request's prefix (a fresh server per run, so no run warms another's cache).
 */
export async function runDelegationBench(options: DelegationBenchOptions): Promise<DelegationBenchResult> {
  const pricingModel = options.pricingModel ?? "gpt-4.1";
  const pricing = findModelPricing(pricingModel);
  if (!pricing) throw new ConfigError("model_unpriced", `No price list for '${pricingModel}' in the pricing catalog; choose a model it lists (e.g. gpt-4.1).`);
  const queries = isolationQueries.slice(0, options.limit ?? isolationQueries.length);
  const runs: DelegationRun[] = [];
  for (const query of queries) {
    for (const arm of isolationArms) runs.push(await runOne(query, arm, options.workspace, (usage) => estimateCost(usage, pricing)));
  }
  return { pricingModel, runs, arms: isolationArms.map((arm) => totalsOf(arm, runs.filter((run) => run.arm === arm))) };
}

async function runOne(query: IsolationQuery, arm: IsolationArm, workspace: string, costOf: (usage: Usage) => number): Promise<DelegationRun> {
  const exploreMarker = "You are explore";
  const server = await startOpenAIModelServer(createScriptedSearcher(query, arm, exploreMarker), { promptCache: "all-requests" });
  try {
    const provider = createOpenAICompatible({ model: "scripted", baseURL: server.baseURL, apiKey: "offline", env: {} });
    const workspaceTools = createWorkspaceTools({ workspace });
    const readTools = workspaceTools.filter((tool) => ["read_file", "grep", "glob", "list_dir"].includes(tool.name));
    const clock = fixedClock();
    const task = createTaskTool({ agents: [createExploreAgent({ tools: readTools }), createForkAgent()], provider, clock, createId: counterIds("child") });
    const { agent } = await assembleAgent({
      provider,
      system: mainSystemPrompt,
      tools: arm === "main" ? readTools : [...readTools, task],
      // The CLI's status bar without the parts that differ between runs (times, the temp folder's path).
      policies: [createStatusBar({ timestamps: false, systemState: false })],
      runtime: { clock, createId: counterIds("main") },
    });
    let mainContextTokens = 0;
    let mainCalls = 0;
    for await (const event of agent.run(query.question)) {
      if (event.type === "usage") {
        mainContextTokens = event.usage.inputTokens;
        mainCalls += 1;
      }
      if (event.type === "run_end") {
        const child = agent.messages.find((message) => message.role === "tool" && message.meta.subAgent)?.meta.subAgent;
        const { usage } = event;
        return {
          query: query.name,
          arm,
          mainContextTokens,
          mainCalls,
          promptTokens: usage.inputTokens,
          cachedTokens: usage.cachedInputTokens,
          outputTokens: usage.outputTokens,
          totalTokens: usage.inputTokens + usage.outputTokens,
          childCalls: child?.iterations ?? 0,
          ...(child?.firstCall ? { childFirstCallCachedShare: share(child.firstCall.cachedInputTokens, child.firstCall.inputTokens) } : {}),
          cost: costOf(usage),
          answer: event.finalText,
        };
      }
    }
    throw new ConfigError("option_invalid", "The isolation bench's run ended without a run_end event.");
  } finally {
    await server.close();
  }
}

function totalsOf(arm: IsolationArm, runs: readonly DelegationRun[]): DelegationArmTotals {
  const mean = (pick: (run: DelegationRun) => number | undefined): number | undefined => {
    const values = runs.flatMap((run) => {
      const value = pick(run);
      return value === undefined ? [] : [value];
    });
    return values.length === 0 ? undefined : values.reduce((total, value) => total + value, 0) / values.length;
  };
  const prompt = runs.reduce((total, run) => total + run.promptTokens, 0);
  const cached = runs.reduce((total, run) => total + run.cachedTokens, 0);
  const childShare = mean((run) => run.childFirstCallCachedShare);
  const cost = mean((run) => run.cost);
  return {
    arm,
    runs: runs.length,
    meanMainContextTokens: mean((run) => run.mainContextTokens) ?? 0,
    meanTotalTokens: mean((run) => run.totalTokens) ?? 0,
    cachedShare: share(cached, prompt),
    ...(childShare === undefined ? {} : { meanChildFirstCallCachedShare: childShare }),
    ...(cost === undefined ? {} : { meanCost: cost }),
  };
}

const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

function fixedClock(): () => Date {
  let time = Date.parse("2026-01-01T00:00:00.000Z");
  return () => new Date((time += 1000));
}

function counterIds(prefix: string): () => string {
  let counter = 0;
  return () => `${prefix}_${counter++}`;
}
