import { compileArgumentValidators, type ArgumentsValidator } from "../tools/validate-tool-arguments.js";
import { ToolError, type Tool, type ToolErrorKind, type ToolOutput } from "../tools/tool.js";
import type { AgentPrefixView, BlobReader, Message, SystemPrompt, ToolCallPart } from "../types/index.js";
import type { ContextPolicy, ToolCallRouter } from "../context/context-policy.js";
import type { PolicyStop, PolicyWarning } from "../context/policy-gates.js";
import { hashToolCall } from "../security/hash-tool-call.js";
import type { ToolCallInfo, ToolCallDecision } from "./agent-options.js";

export interface ToolExecutionContext {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one map
  tools: ReadonlyMap<string, Tool<any>>;
  validators: ReadonlyMap<string, ArgumentsValidator>;
  /** The policies' tool-call hook (runtime guard, repeated-call limit, allow lists): allow, ask or refuse. */
  onToolCall?: ContextPolicy["onToolCall"];
  confirmToolCall?: (call: ToolCallInfo) => Promise<boolean | ToolCallDecision>;
  /** The system prompt the agent sends (the guard reads it). */
  system?: Readonly<SystemPrompt>;
  defaultTimeoutMs: number;
  signal: AbortSignal;
  /** The trajectory, handed to tools as `ToolContext.messages`. */
  messages?: readonly Message[];
  /** Handed to tools as `ToolContext.blobs` / `ToolContext.findMessage` (for `recall`). */
  blobs?: BlobReader;
  findMessage?: (id: string) => Message | undefined;
  /** Handed to tools as `ToolContext.agent` (a fork sub-agent starts from it). */
  agent?: AgentPrefixView;
  /** The policies' router (the tool-search proxy): runs first, so a routed call is checked like a direct one. */
  routeToolCall?: ToolCallRouter;
  /** The runtime's `wrapTool`: what executes in the tool's place (a durable step, say). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see tools
  wrapTool?: (tool: Tool<any>) => Tool<any>;
  /** The call the output token limit (`length`) cut mid-arguments: its arguments do not parse because they were cut, not malformed. */
  cutCallId?: string;
}

export interface ToolCallOutcome {
  call: ToolCallPart;
  /** The call that ran in its place, when a policy routed it (`call_tool` → the tool it names). */
  routed?: ToolCallPart;
  /** The tool that ran (undefined when none was found); its `source` tags the result. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ToolExecutionContext.tools
  tool?: Tool<any>;
  output: ToolOutput;
  durationMs: number;
  /** Set when the call needed a confirmation: the answer. */
  confirmation?: "approved" | "declined";
  /** Set when a policy's refusal ends the run after this turn. */
  stop?: PolicyStop;
  warnings?: PolicyWarning[];
}

/**
 * Runs one turn's tool calls. Consecutive calls of parallel-safe tools run together; a call that
 * changes the world runs alone, so the order the model wrote them in is the order they take effect.
 * Outcomes come back in call order whatever order they finish in.
 */
export async function executeToolCalls(calls: readonly ToolCallPart[], context: ToolExecutionContext): Promise<ToolCallOutcome[]> {
  const outcomes: ToolCallOutcome[] = [];
  let batch: ToolCallPart[] = [];
  const runBatch = async () => {
    outcomes.push(...(await Promise.all(batch.map((call) => executeToolCall(call, context)))));
    batch = [];
  };
  for (const call of calls) {
    if (context.tools.get(call.name)?.parallelSafe === true) {
      batch.push(call);
      continue;
    }
    await runBatch();
    batch = [call];
    await runBatch();
  }
  await runBatch();
  return outcomes;
}

export async function executeToolCall(call: ToolCallPart, context: ToolExecutionContext): Promise<ToolCallOutcome> {
  const started = performance.now();
  // The time a person takes to answer a confirmation is not the tool's: it is left out of durationMs.
  const timing: CallTiming = { waitedMs: 0 };
  const route = context.routeToolCall?.(call, { messages: context.messages ?? [] });
  const effective = route?.type === "call" ? route.call : call;
  const tool = route?.type === "call" && route.tool ? route.tool : context.tools.get(effective.name);
  // A throwing hook or confirmation handler must not leave the call without a result.
  const output =
    route?.type === "error"
      ? failure(route.kind, route.message)
      : await runToolCall(effective, tool, context, timing).catch((error: unknown) => failureFromThrown(effective.name, error));
  return {
    call,
    ...(effective !== call ? { routed: effective } : {}),
    ...(tool && route?.type !== "error" ? { tool } : {}),
    ...(timing.stop ? { stop: timing.stop } : {}),
    ...(timing.warnings ? { warnings: timing.warnings } : {}),
    ...(timing.confirmation ? { confirmation: timing.confirmation } : {}),
    output,
    durationMs: Math.max(0, Math.round(performance.now() - started - timing.waitedMs)),
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ToolExecutionContext.tools
async function runToolCall(call: ToolCallPart, tool: Tool<any> | undefined, context: ToolExecutionContext, timing: CallTiming): Promise<ToolOutput> {
  if (!tool) {
    // Deferred tools are found with tool_search, not listed here (a catalog of hundreds would flood the result).
    const available = [...context.tools.values()].filter((known) => known.deferred !== true).map((known) => known.name).join(", ") || "(none)";
    return failure("unknown_tool", `Tool '${call.name}' not found. Available tools: ${available}.`);
  }
  if (call.arguments === undefined && call.id === context.cutCallId) {
    // "Call again" alone sends the model back to write the same long call, cut at the same place.
    return failure(
      "invalid_arguments",
      `The arguments for '${call.name}' were cut off: your answer reached the output token limit inside this call. ` +
        "Call the tool again with shorter arguments (split a long text into several smaller calls).",
    );
  }
  if (call.arguments === undefined) {
    return failure(
      "invalid_arguments",
      `The arguments for '${call.name}' are not valid JSON: ${truncate(call.argumentsText, 200)}. ` +
        "Call the tool again with a JSON object that matches its parameters.",
    );
  }
  const validator = context.tools.get(call.name) === tool ? (context.validators.get(call.name) ?? acceptAll) : lateValidator(tool);
  if (validator === undefined) return failure("failed", `'${call.name}' cannot be called: its parameters are not a valid JSON Schema.`);
  let verdict: ReturnType<ArgumentsValidator>;
  try {
    verdict = validator(call.arguments);
  } catch {
    // The agent's validators compile on a tool's first call; a schema that does not compile fails that call.
    return failure("failed", `'${call.name}' cannot be called: its parameters are not a valid JSON Schema.`);
  }
  if (!verdict.valid) {
    return failure(
      "invalid_arguments",
      `Invalid arguments for '${call.name}': ${verdict.problems.join("; ")}. ` +
        `Expected parameters: ${JSON.stringify(tool.parameters)}.`,
    );
  }
  // A call after the run was stopped (Ctrl-C at an earlier call's question, or while it ran) is
  // neither asked about nor started: it still gets a result, as every call must.
  if (context.signal.aborted) return notStarted(call.name);
  const system = context.system ?? { staticText: "" };
  const argumentsHash = hashToolCall(call.name, call.arguments);
  const gate = context.onToolCall ? await context.onToolCall({ call, tool, tools: context.tools, messages: context.messages ?? [], system, argumentsHash }) : { action: "allow" as const };
  if (gate.action === "refuse") {
    if (gate.stop) timing.stop = gate.stop;
    if (gate.warnings) timing.warnings = gate.warnings;
    return failure(gate.kind ?? "rejected", gate.message);
  }
  const ask = gate.action === "ask" ? gate : undefined;
  const exact = ask?.exact === true;
  const info: ToolCallInfo = {
    id: call.id,
    name: call.name,
    arguments: call.arguments,
    argumentsText: call.argumentsText,
    ...(ask && exact ? { guard: { reasons: ask.reasons, argumentsHash, ...(ask.evidence !== undefined ? { evidence: ask.evidence } : {}) } } : {}),
    ...(ask && !exact ? { asked: { reasons: ask.reasons } } : {}),
  };
  const confirms = needsConfirmation(tool, call.arguments);
  // A policy's rule (an allow list, --yes) may approve a confirming tool in advance; never another policy's ask.
  const approvedByRule = gate.action === "allow" && gate.approved === true;
  if (confirms && approvedByRule) timing.confirmation = "approved";
  else if (ask || confirms) {
    const askedAt = performance.now();
    const answer = context.confirmToolCall ? await context.confirmToolCall(info) : false;
    timing.waitedMs += performance.now() - askedAt;
    const decision = typeof answer === "boolean" ? { approved: answer } : answer;
    const said = decision.reason?.trim();
    timing.confirmation = decision.approved && (!ask || !exact || decision.argumentsHash === argumentsHash) ? "approved" : "declined";
    // A stop is no answer: its reason is ctxkit's note, and "the user … said:" would put it in the person's mouth.
    if (!decision.approved && decision.stopped === true) {
      return failure("rejected", `The user stopped the turn before answering whether to run this call to '${call.name}', so it was not run.`);
    }
    // An exact ask runs only on an approval of this exact call: a bare `true`, or one for other arguments, is not one.
    if (ask && !(decision.approved && (!exact || decision.argumentsHash === argumentsHash))) {
      return failure("rejected", ask.refusal({ ...(said ? { said: truncate(said, 2000) } : {}), hasHandler: context.confirmToolCall !== undefined }));
    }
    if (!decision.approved) {
      return failure(
        "rejected",
        !context.confirmToolCall
          ? `'${call.name}' needs the user's approval and no approval handler is configured, so it was not run.`
          : said
            ? `The user declined this call to '${call.name}' and said: ${truncate(said, 2000)}`
            : `The user declined this call to '${call.name}'. Ask the user how to proceed or try another approach.`,
      );
    }
  }
  return runWithTimeout(tool, call, context);
}

/** What a call's run reports besides its output: time spent waiting for a person, and a policy's stop. */
interface CallTiming {
  waitedMs: number;
  confirmation?: "approved" | "declined";
  stop?: PolicyStop;
  warnings?: PolicyWarning[];
}

const acceptAll: ArgumentsValidator = () => ({ valid: true });

// Tools routed in mid-session (not compiled with the agent's): compiled once, on their first call.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ToolExecutionContext.tools
const lateValidators = new WeakMap<Tool<any>, ArgumentsValidator | undefined>();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ToolExecutionContext.tools
function lateValidator(tool: Tool<any>): ArgumentsValidator | undefined {
  if (lateValidators.has(tool)) return lateValidators.get(tool);
  let validator: ArgumentsValidator | undefined;
  try {
    validator = compileArgumentValidators([tool]).get(tool.name);
  } catch {
    validator = undefined;
  }
  lateValidators.set(tool, validator);
  return validator;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ToolExecutionContext.tools
function needsConfirmation(tool: Tool<any>, args: unknown): boolean {
  const rule = tool.requiresConfirmation;
  return typeof rule === "function" ? rule(args) : rule === true;
}

const notStarted = (name: string): ToolOutput => failure("failed", `'${name}' was not run: the run was stopped before it started.`);

/** How long an aborted call may take to stop (bash kills its process group at once) before the loop goes on without it. */
const abortGraceMs = 2_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ToolExecutionContext.tools
async function runWithTimeout(tool: Tool<any>, call: ToolCallPart, context: ToolExecutionContext): Promise<ToolOutput> {
  // Stopped while its question waited: approved or not, it does not start.
  if (context.signal.aborted) return notStarted(call.name);
  const timeoutMs = tool.timeoutMs ?? context.defaultTimeoutMs;
  const controller = new AbortController();
  const onAbort = () => controller.abort(context.signal.reason);
  context.signal.addEventListener("abort", onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ToolOutput>((resolve) => {
    timer = setTimeout(() => {
      // The reason says what the loop answered: a wrapper still running the call (a durable step)
      // records the timeout, not what the call returns later.
      const stopped = new ToolError("timeout", `'${call.name}' did not finish within ${timeoutMs} ms and was stopped. Try a smaller request.`);
      controller.abort(stopped);
      resolve(failure(stopped.kind, stopped.message));
    }, timeoutMs);
  });
  let settle: () => void = () => {};
  const settled = new Promise<void>((resolve) => (settle = resolve));
  let stop: (() => void) | undefined;
  let stopping = false;
  const aborted = new Promise<ToolOutput>((resolve) => {
    stop = () => {
      stopping = true;
      // A call that stops on the abort is given a moment to finish cleaning up before the loop goes on
      // and writes the session, so its output and bash's "changes undone" report come before the
      // interrupted turn. Correctness does not hang on it: the session's writes are told to bash's
      // protected-files guard (noteHarnessWrite), whose late undo keeps them. A call that ignores the
      // abort is waited for no longer than the grace.
      const grace = setTimeout(settle, abortGraceMs);
      void settled.then(() => {
        clearTimeout(grace);
        resolve(failure("failed", `'${call.name}' was interrupted because the run was aborted.`));
      });
    };
    if (context.signal.aborted) stop();
    else context.signal.addEventListener("abort", stop, { once: true });
  });
  try {
    const runnable = context.wrapTool ? context.wrapTool(tool) : tool;
    // Through a promise: a plain-JavaScript tool whose execute returns synchronously, or throws, is handled like an async one.
    const execution = Promise.resolve()
      .then(() =>
        runnable.execute(call.arguments, {
          signal: controller.signal,
          toolCallId: call.id,
          argumentsText: call.argumentsText,
          ...(context.messages ? { messages: context.messages } : {}),
          ...(context.blobs ? { blobs: context.blobs } : {}),
          ...(context.findMessage ? { findMessage: context.findMessage } : {}),
          ...(context.agent ? { agent: context.agent } : {}),
        }),
      )
      .then((result: unknown): ToolOutput => toolOutputOf(call.name, result))
      .catch((error: unknown) => failureFromThrown(call.name, error))
      .finally(settle);
    const output = await Promise.race([execution, timeout, aborted]);
    // The call that ended because of the abort is answered as interrupted, whatever it returned while stopping.
    return stopping ? await aborted : output;
  } finally {
    clearTimeout(timer);
    context.signal.removeEventListener("abort", onAbort);
    if (stop) context.signal.removeEventListener("abort", stop);
  }
}

/**
 * What a tool returned, checked: the types ask for a string or `{ content: string }`, but a tool in
 * plain JavaScript can return anything, and undefined or an object without `content` crashed the run
 * (or failed a later policy). The model gets an error result; the message names the fix for the tool's author.
 */
function toolOutputOf(toolName: string, result: unknown): ToolOutput {
  if (typeof result === "string") return { content: result };
  if (result !== null && typeof result === "object" && typeof (result as { content?: unknown }).content === "string") return result as ToolOutput;
  const got = result === null ? "null" : Array.isArray(result) ? "an array" : typeof result === "object" ? "an object without a string `content`" : typeof result;
  return failure("failed", `'${toolName}' returned ${got}; a tool's execute must resolve to a string or { content: string } (a bug in the tool, not in the call).`);
}

function failureFromThrown(toolName: string, error: unknown): ToolOutput {
  if (error instanceof ToolError) return failure(error.kind, error.message);
  const message = error instanceof Error ? error.message : String(error);
  return failure("failed", `'${toolName}' failed: ${message}`);
}

export function failure(kind: ToolErrorKind, message: string): ToolOutput {
  return { content: `Error (${kind}): ${message}`, isError: true, errorKind: kind };
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}
