import type { Provider } from "../providers/provider.js";
import type { ContextPolicy } from "../context/context-policy.js";
import type { Tool } from "../types/index.js";

/** The parts of a run's agent, rebuilt by a worker from the run's stored spec (`DurableAgentSpec.input`). */
export interface DurableAgentParts {
  provider: Provider;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type
  tools: readonly Tool<any>[];
  system: string;
  policies?: readonly ContextPolicy[];
  maxIterations?: number;
  /** Absolute path recorded in the session header. */
  workspace?: string;
  /** The most tokens one model call may use (prompt + output): what a shared budget reserves per call. */
  maxCallTokens: number;
}

/** Builds a run's agent parts from its spec; must give the same agent every time for the same input. */
export type DurableAgentBuilder = (input: Record<string, unknown>) => Promise<DurableAgentParts>;
