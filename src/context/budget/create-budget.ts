import type {
  Budget,
  BudgetCheck,
  BudgetEstimate,
  BudgetLevel,
  BudgetLevelStatus,
  BudgetLimits,
  BudgetOverrun,
  BudgetSpend,
  BudgetThresholdCrossing,
  Usage,
} from "../../types/index.js";
import {
  backpressureDelay,
  checkBackpressureSteps,
  checkBudgetLimits,
  defaultBackpressureSteps,
  defaultBudgetThresholds,
  type BackpressureStep,
  type BudgetOptions,
} from "./budget-options.js";

type Dimension = "tokens" | "cost";

interface Shared {
  options: BudgetOptions;
  thresholds: readonly number[];
  steps: readonly BackpressureStep[];
}

/** A level with its counters; `Budget` is its public face. */
interface Node extends Budget {
  spent: BudgetSpend;
  /** `${dimension}:${threshold}` already reported. */
  crossed: Set<string>;
  approved: boolean;
  softReported: Set<Dimension>;
  lastTask: Node | undefined;
}

/**
 * Creates a hierarchical token and cost budget (the Shannon chapter's Session → Task → Agent
 * levels): pure accounting, no clock, no I/O. `createAgent({ budget })` starts a task level per
 * run, checks every call against every level before it is sent (estimated prompt + the most output
 * it may produce), waits out backpressure and charges the usage the provider reports. A sub-agent
 * gets `taskBudget.child(limits)`, so its calls count for its parent's task and session too.
 */
export function createBudget(options: BudgetOptions = {}): Budget {
  const hasPrices = options.costOf !== undefined;
  checkBudgetLimits(options.session, "session", hasPrices);
  checkBudgetLimits(options.task, "task", hasPrices);
  const thresholds = [...(options.thresholds ?? defaultBudgetThresholds)].sort((left, right) => left - right);
  const steps = options.backpressure === false ? [] : checkBackpressureSteps(options.backpressure ?? defaultBackpressureSteps);
  const shared: Shared = { options, thresholds, steps };
  return createNode(shared, "session", options.session ?? {}, undefined, undefined, options.spent ?? { tokens: 0, costUsd: 0 });
}

function createNode(shared: Shared, level: BudgetLevel, limits: BudgetLimits, parent: Node | undefined, label: string | undefined, spent: BudgetSpend): Node {
  const { options } = shared;
  const node: Node = {
    level,
    limits: { ...limits },
    ...(label !== undefined ? { label } : {}),
    ...(parent ? { parent } : {}),
    ...(options.confirm ? { confirm: options.confirm } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
    spent: { ...spent },
    crossed: new Set(),
    approved: false,
    softReported: new Set(),
    lastTask: undefined,
    child(childLimits = {}, childLabel) {
      checkBudgetLimits(childLimits, childLabel ? `'${childLabel}' agent` : "agent", options.costOf !== undefined);
      return createNode(shared, "agent", childLimits, node, childLabel, { tokens: 0, costUsd: 0 });
    },
    startTask() {
      // Task limits apply to the tasks of the session; a sub-agent's run is bounded by its agent level.
      node.lastTask = createNode(shared, "task", level === "session" ? (options.task ?? {}) : {}, node, undefined, { tokens: 0, costUsd: 0 });
      return node.lastTask;
    },
    current() {
      return node.lastTask ? node.lastTask.current() : node;
    },
    check(estimate) {
      return checkChain(shared, chainOf(node), estimate);
    },
    charge(usage, model) {
      const tokens = usage.inputTokens + usage.outputTokens;
      const costUsd = options.costOf?.(usage, model) ?? 0;
      const crossings: BudgetThresholdCrossing[] = [];
      for (const member of chainOf(node)) {
        member.spent = { tokens: member.spent.tokens + tokens, costUsd: member.spent.costUsd + costUsd };
        crossings.push(...newCrossings(shared, member));
      }
      return crossings;
    },
    approve(overruns) {
      for (const overrun of overruns) {
        const member = chainOf(node).find((candidate) => sameLevel(candidate, overrun.status));
        if (member) member.approved = true;
      }
    },
    takeSoftOverruns(overruns) {
      return overruns.filter((overrun) => {
        if (overrun.status.mode !== "soft") return false;
        const member = chainOf(node).find((candidate) => sameLevel(candidate, overrun.status));
        if (!member || member.softReported.has(overrun.dimension)) return false;
        member.softReported.add(overrun.dimension);
        return true;
      });
    },
    status() {
      return chainOf(node).map(statusOf);
    },
  };
  // A resumed session does not warn again for thresholds it had already passed.
  for (const crossing of newCrossings(shared, node)) node.crossed.add(`${crossing.dimension}:${crossing.threshold}`);
  return node;
}

function chainOf(node: Node): Node[] {
  const chain: Node[] = [];
  for (let current: Node | undefined = node; current; current = current.parent as Node | undefined) chain.push(current);
  return chain;
}

function sameLevel(node: Node, status: BudgetLevelStatus): boolean {
  return node.level === status.level && node.label === status.label;
}

function statusOf(node: Node): BudgetLevelStatus {
  return {
    level: node.level,
    ...(node.label !== undefined ? { label: node.label } : {}),
    limits: { ...node.limits },
    mode: node.limits.mode ?? "hard",
    spent: { ...node.spent },
    share: Math.max(shareOf(node, "tokens", node.spent.tokens), shareOf(node, "cost", node.spent.costUsd)),
  };
}

function limitOf(node: Node, dimension: Dimension): number | undefined {
  return dimension === "tokens" ? node.limits.tokens : node.limits.costUsd;
}

function shareOf(node: Node, dimension: Dimension, amount: number): number {
  const limit = limitOf(node, dimension);
  return limit === undefined ? 0 : amount / limit;
}

function newCrossings(shared: Shared, node: Node): BudgetThresholdCrossing[] {
  const crossings: BudgetThresholdCrossing[] = [];
  for (const dimension of ["tokens", "cost"] as const) {
    const share = shareOf(node, dimension, dimension === "tokens" ? node.spent.tokens : node.spent.costUsd);
    for (const threshold of shared.thresholds) {
      const key = `${dimension}:${threshold}`;
      if (share < threshold || node.crossed.has(key)) continue;
      node.crossed.add(key);
      crossings.push({ status: statusOf(node), dimension, threshold });
    }
  }
  return crossings;
}

/**
 * Every level the call could take over its limit. The prompt is priced as if all of it were written
 * to the cache (the dearest a prompt token can be), so the check never under-estimates a cost.
 */
function checkChain(shared: Shared, chain: readonly Node[], estimate: BudgetEstimate): BudgetCheck {
  const tokens = estimate.promptTokens + estimate.maxOutputTokens;
  const usage: Usage = { inputTokens: estimate.promptTokens, cachedInputTokens: 0, cacheWriteTokens: estimate.promptTokens, outputTokens: estimate.maxOutputTokens, reasoningTokens: 0 };
  const cost = shared.options.costOf && chain.some((node) => node.limits.costUsd !== undefined) ? shared.options.costOf(usage, estimate.model) : 0;
  const overruns: BudgetOverrun[] = [];
  let share = 0;
  for (const node of chain) {
    const status = statusOf(node);
    share = Math.max(share, status.share);
    if (node.limits.tokens !== undefined && node.spent.tokens + tokens > node.limits.tokens) {
      overruns.push({ status, dimension: "tokens", projected: node.spent.tokens + tokens, limit: node.limits.tokens });
    }
    if (node.limits.costUsd !== undefined && node.spent.costUsd + cost > node.limits.costUsd) {
      overruns.push({ status, dimension: "cost", projected: node.spent.costUsd + cost, limit: node.limits.costUsd });
    }
  }
  const blocking = overruns.filter((overrun) => !(overrun.status.mode === "approval" && chain.find((node) => sameLevel(node, overrun.status))?.approved));
  const action = blocking.some((overrun) => overrun.status.mode === "hard")
    ? "refuse"
    : blocking.some((overrun) => overrun.status.mode === "approval")
      ? "ask"
      : "proceed";
  return { action, overruns: action === "proceed" ? overruns : blocking, delayMs: backpressureDelay(share, shared.steps), share };
}
