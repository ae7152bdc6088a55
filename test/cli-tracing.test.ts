import { readFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { estimateCost, findModelPricing } from "../src/tokens/pricing.js";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import type { AgentEvent, Usage } from "../src/types/index.js";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "./otlp-receiver.js";
import { runCli } from "./run-cli.js";

let server: OpenAIModelServer | undefined;
let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await server?.close();
  await receiver?.close();
  server = undefined;
  receiver = undefined;
});

type Body = { messages: Array<{ role: string; content?: unknown }> };
let scriptedCwd = "";

/** A session file's run id and its calls' usage, read as records (the sub-agent's own session). */
function sessionRecords(sessionId: string): { runId: string; usage: Usage[] } {
  const lines = readFileSync(join(scriptedCwd, ".ctxkit", "sessions", `${sessionId}.jsonl`), "utf8").trim().split("\n").map((line) => JSON.parse(line) as { type: string; runId?: string; usage?: Usage });
  return { runId: lines.find((line) => line.type === "run_start")!.runId!, usage: lines.filter((line) => line.type === "usage").map((line) => line.usage!) };
}
const notes = 8;

/**
 * The scripted task: the main agent hands a search to `explore` (a sub-agent), writes a file
 * (confirmed by --yes), then reads notes until the 8,000-token window makes ctxkit compact; the
 * last note is long enough to be capped.
 */
async function scriptedRun(env: Record<string, string>) {
  const cwd = await mkdtemp(join(tmpdir(), "ctxkit-cli-tracing-"));
  const page = Array.from({ length: 60 }, (_, line) => `line ${line}: the quick brown fox jumps over the lazy dog number ${line}`).join("\n");
  for (let index = 0; index < notes - 1; index++) await writeFile(join(cwd, `notes-${index}.txt`), page);
  // The last note is over the result budget: it is shown as a preview, the whole text kept in the blob store.
  await writeFile(join(cwd, `notes-${notes - 1}.txt`), Array.from({ length: 8 }, () => page).join("\n"));
  let mainCalls = 0;
  server = await startOpenAIModelServer((body: Body) => {
    const system = String(body.messages[0]?.content ?? "");
    const results = body.messages.filter((message) => message.role === "tool").length;
    // The sub-agent's answer reports cache writes and reasoning tokens (as OpenRouter and o-series models do).
    if (system.includes("You are explore")) return results > 0 ? { text: "notes-0.txt holds the fox lines.", usage: { cacheWriteTokens: 640, reasoningTokens: 12 } } : { toolCalls: [{ name: "grep", arguments: { pattern: "fox" } }] };
    // The main agent's calls, in order: the task, the write, one read per note, the answer.
    const step = mainCalls++;
    if (step === 0) return { toolCalls: [{ name: "task", arguments: { agent: "explore", description: "find the fox", prompt: "Which file has the fox?" } }] };
    if (step === 1) return { toolCalls: [{ name: "write_file", arguments: { path: "summary.txt", content: "fox\n" } }] };
    return step - 2 < notes ? { toolCalls: [{ name: "read_file", arguments: { path: `notes-${step - 2}.txt` } }] } : { text: "Done: the fox is in every note.", usage: { cacheWriteTokens: 1024, reasoningTokens: 9 } };
  });
  const args = ["run", "--base-url", server.baseURL, "--model", "gpt-4.1", "--context-window", "8000", "--max-output-tokens", "512", "--temperature", "0.25", "--yes", "--trust-workspace", "--json", "Read the notes."];
  const run = await runCli(args, { cwd, env });
  scriptedCwd = cwd;
  const events = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as AgentEvent | { type: "status_bar_mode" });
  return { run, events: events.filter((event): event is AgentEvent => event.type !== "status_bar_mode") };
}

interface Node {
  span: ReceivedSpan;
  children: Node[];
}

function spanTree(spans: readonly ReceivedSpan[]): Node[] {
  const nodes = new Map(spans.map((span) => [span.spanId, { span, children: [] as Node[] }]));
  const roots: Node[] = [];
  for (const node of [...nodes.values()].sort((a, b) => (a.span.startNs < b.span.startNs ? -1 : a.span.startNs > b.span.startNs ? 1 : 0))) {
    const parent = nodes.get(node.span.parentSpanId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** The tree as the closing note shows it: each span with the attributes that tell its story. */
function drawSpanTree(nodes: readonly Node[], depth = 0): string[] {
  return nodes.flatMap((node) => [`${"  ".repeat(depth)}${node.span.name}${describeSpan(node.span.attributes)}`, ...drawSpanTree(node.children, depth + 1)]);
}

function describeSpan(attributes: Record<string, unknown>): string {
  const parts: string[] = [];
  if (attributes["gen_ai.conversation.id"]) parts.push(`conversation ${String(attributes["gen_ai.conversation.id"])}`);
  if (attributes["gen_ai.usage.input_tokens"] !== undefined) parts.push(`in ${String(attributes["gen_ai.usage.input_tokens"])} (cached ${String(attributes["gen_ai.usage.cache_read.input_tokens"])}) out ${String(attributes["gen_ai.usage.output_tokens"])}`);
  if (attributes["gen_ai.usage.cache_creation.input_tokens"]) parts.push(`cache write ${String(attributes["gen_ai.usage.cache_creation.input_tokens"])}`);
  if (attributes["gen_ai.usage.reasoning.output_tokens"]) parts.push(`reasoning ${String(attributes["gen_ai.usage.reasoning.output_tokens"])}`);
  if (attributes["gen_ai.response.model"]) parts.push(`answered by ${String(attributes["gen_ai.response.model"])}`);
  if (attributes["gen_ai.response.finish_reasons"]) parts.push(`finish ${String(attributes["gen_ai.response.finish_reasons"])}`);
  if (attributes["ctxkit.prefix.reusable_tokens"] !== undefined) parts.push(`reusable ${String(attributes["ctxkit.prefix.reusable_tokens"])}`);
  if (attributes["ctxkit.policy.compaction"] === true) parts.push("compaction");
  if (attributes["ctxkit.cache_break"] === true) parts.push(`cache break ${attributes["ctxkit.cache_break.declared"] === true ? "declared" : "UNDECLARED"} at ${String(attributes["ctxkit.cache_break.layer"])} token ${String(attributes["ctxkit.cache_break.first_divergent_token"])}`);
  if (typeof attributes["ctxkit.cost.usd"] === "number") parts.push(`$${attributes["ctxkit.cost.usd"].toFixed(5)}`);
  if (attributes["gen_ai.tool.call.id"]) parts.push(`${String(attributes["gen_ai.tool.call.id"])} ${String(attributes["ctxkit.tool.confirmation"])} ${String(attributes["ctxkit.tool.duration_ms"])}ms${attributes["ctxkit.tool.capped"] === true ? (attributes["ctxkit.tool.spilled"] === true ? " capped+spilled" : " capped") : ""}`);
  return parts.length > 0 ? `  [${parts.join("; ")}]` : "";
}

const usageAttributes = (usage: Usage) => ({
  "gen_ai.usage.input_tokens": usage.inputTokens,
  "gen_ai.usage.output_tokens": usage.outputTokens,
  "gen_ai.usage.cache_read.input_tokens": usage.cachedInputTokens,
  "gen_ai.usage.cache_creation.input_tokens": usage.cacheWriteTokens,
  "gen_ai.usage.reasoning.output_tokens": usage.reasoningTokens,
});

/** Checks every span of the main run against the run's own NDJSON events, attribute by attribute. */
function checkTrace(spans: readonly ReceivedSpan[], events: readonly AgentEvent[]) {
  const roots = spanTree(spans);
  expect(roots).toHaveLength(1);
  const root = roots[0]!;
  const start = events.find((event) => event.type === "run_start")!;
  const end = events.find((event) => event.type === "run_end")!;
  expect(end.stopReason).toBe("final_answer");
  expect(root.span.name).toBe("invoke_agent ctxkit");
  expect(root.span.resource["service.name"]).toBe("ctxkit-tests");
  expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
  expect(root.span.attributes).toEqual({
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.agent.name": "ctxkit",
    "gen_ai.agent.id": start.runId,
    "gen_ai.conversation.id": end.sessionId,
    "gen_ai.provider.name": "openai",
    "gen_ai.request.model": "gpt-4.1",
    ...usageAttributes(end.usage),
    "ctxkit.stop_reason": "final_answer",
    "ctxkit.iterations": end.iterations,
  });

  // One chat span per call, in order, then the tool spans of that call's tool calls.
  const chats = root.children.filter((node) => node.span.name.startsWith("chat "));
  const tools = root.children.filter((node) => node.span.name.startsWith("execute_tool "));
  expect(chats).toHaveLength(end.iterations);
  expect(root.children).toHaveLength(chats.length + tools.length);
  const pricing = findModelPricing("gpt-4.1")!;
  let compactions = 0;
  let previousReusable = 0;
  const responseIds = new Set<string>();
  const serverPort = Number(new URL(server!.baseURL).port);
  for (const [turn, chat] of chats.entries()) {
    const turnEvents = events.filter((event) => "turn" in event && event.turn === turn);
    const request = turnEvents.find((event) => event.type === "request")!;
    const usage = turnEvents.find((event) => event.type === "usage")!.usage;
    const turnEnd = turnEvents.find((event) => event.type === "turn_end")!;
    const cacheBreak = turnEvents.find((event) => event.type === "cache_break");
    const edits = turnEvents.filter((event) => event.type === "context_edit");
    const { "gen_ai.response.time_to_first_chunk": firstChunk, "gen_ai.response.id": responseId, ...attributes } = chat.span.attributes;
    // The scripted server numbers its responses across both agents' calls.
    expect(responseId).toMatch(/^chatcmpl-\d+$/);
    responseIds.add(responseId as string);
    expect(typeof firstChunk).toBe("number");
    expect(firstChunk as number).toBeGreaterThan(0);
    expect(BigInt(Math.round((firstChunk as number) * 1e9))).toBeLessThanOrEqual(chat.span.endNs - chat.span.startNs);
    expect(attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4.1",
      // What the server reported, not what was asked for: the scripted server answers as model "scripted".
      "gen_ai.response.model": "scripted",
      "gen_ai.conversation.id": end.sessionId,
      "server.address": "127.0.0.1",
      "server.port": serverPort,
      "gen_ai.request.max_tokens": 512,
      "gen_ai.request.temperature": 0.25,
      "gen_ai.response.finish_reasons": [turnEnd.message.rawStopReason ?? turnEnd.message.stopReason],
      ...usageAttributes(usage),
      "ctxkit.turn": turn,
      "ctxkit.prefix.reusable_tokens": request.reusablePrefixTokens,
      "ctxkit.cost.usd": estimateCost(usage, pricing),
      // The status bar rides in the tail (its replace mode); nothing clears results in this run.
      "ctxkit.policy.status_bar_mode": "replace",
      "ctxkit.policy.clearing": false,
      "ctxkit.policy.compaction": edits.some((edit) => edit.kind === "replace" && edit.derived!.some((kind) => kind === "summary" || kind === "archive")),
      ...(edits.some((edit) => edit.kind === "replace") ? { "ctxkit.policy.edits": edits.filter((edit) => edit.kind === "replace").map((edit) => edit.reason) } : {}),
      "ctxkit.cache_break": cacheBreak !== undefined,
      ...(cacheBreak
        ? {
            "ctxkit.cache_break.declared": cacheBreak.declared,
            "ctxkit.cache_break.layer": cacheBreak.layer,
            "ctxkit.cache_break.first_divergent_token": cacheBreak.firstDifferingToken,
            "ctxkit.cache_break.lost_tokens": cacheBreak.lostTokens,
            "ctxkit.cache_break.reason": cacheBreak.reason,
          }
        : {}),
    });
    // The first call reuses nothing; a break keeps what precedes it; otherwise the whole previous body is reusable, so it grows.
    if (turn === 0) expect(request.reusablePrefixTokens).toBe(0);
    else if (cacheBreak) expect(request.reusablePrefixTokens).toBe(cacheBreak.firstDifferingToken);
    else expect(request.reusablePrefixTokens).toBeGreaterThan(previousReusable);
    previousReusable = request.reusablePrefixTokens!;
    if (edits.some((edit) => edit.kind === "replace")) {
      compactions += 1;
      // A compaction is a declared break: the layer where the summary starts, and what the cache keeps.
      expect(cacheBreak).toMatchObject({ declared: true, layer: "message" });
    }
  }
  expect(compactions).toBeGreaterThan(0);
  expect(responseIds.size).toBe(chats.length);

  const results = events.filter((event) => event.type === "tool_result");
  expect(tools.map((node) => node.span.attributes["gen_ai.tool.call.id"])).toEqual(results.map((result) => result.message.toolCallId));
  for (const [index, node] of tools.entries()) {
    const result = results[index]!;
    const preview = result.message.meta.derived?.kind === "preview";
    expect(node.span.name).toBe(`execute_tool ${result.message.toolName}`);
    expect(node.span.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": result.message.toolName,
      "gen_ai.tool.call.id": result.message.toolCallId,
      "gen_ai.tool.type": "function",
      "ctxkit.tool.duration_ms": result.durationMs,
      "ctxkit.tool.confirmation": result.message.toolName === "write_file" ? "approved" : "not_required",
      "ctxkit.tool.capped": preview,
      "ctxkit.tool.spilled": preview,
      ...(result.message.meta.subAgent?.sessionId ? { "ctxkit.sub_agent.session_id": result.message.meta.subAgent.sessionId } : {}),
    });
    // Each tool span starts when the call that asked for it ended (the SDK stamps a span's start to the millisecond).
    const asking = chats[result.turn]!;
    expect(node.span.startNs).toBeGreaterThanOrEqual(asking.span.endNs - 1_000_000n);
  }
  expect(tools.some((node) => node.span.attributes["ctxkit.tool.capped"] === true)).toBe(true);

  // The sub-agent's run nests under the parent's `task` span, with its own session as conversation.
  const task = tools.find((node) => node.span.name === "execute_tool task")!;
  const child = events.find((event) => event.type === "tool_result" && event.message.toolName === "task") as Extract<AgentEvent, { type: "tool_result" }>;
  expect(task.children.map((node) => node.span.name)).toEqual(["invoke_agent explore"]);
  const explore = task.children[0]!;
  const childSession = child.message.meta.subAgent!.sessionId!;
  const childRecords = sessionRecords(childSession);
  expect(explore.span.attributes).toEqual({
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.agent.name": "explore",
    "gen_ai.agent.id": childRecords.runId,
    "gen_ai.conversation.id": childSession,
    "gen_ai.provider.name": "openai",
    "gen_ai.request.model": "gpt-4.1",
    ...usageAttributes(child.message.meta.subAgent!.usage),
    "ctxkit.stop_reason": "final_answer",
    "ctxkit.iterations": 2,
  });
  expect(explore.children.map((node) => node.span.name)).toEqual(["chat gpt-4.1", "execute_tool grep", "chat gpt-4.1"]);
  const [childFirst, grep, childLast] = explore.children as [Node, Node, Node];
  expect(childRecords.usage).toHaveLength(2);
  for (const [index, chat] of [childFirst, childLast].entries()) {
    const usage = childRecords.usage[index]!;
    const { "gen_ai.response.time_to_first_chunk": firstChunk, "gen_ai.response.id": responseId, "ctxkit.prefix.reusable_tokens": reusable, ...attributes } = chat.span.attributes;
    expect(firstChunk as number).toBeGreaterThan(0);
    expect(responseId).toMatch(/^chatcmpl-\d+$/);
    // The child's first call reuses nothing of its own session; its second reuses the first's body.
    if (index === 0) expect(reusable).toBe(0);
    else expect(reusable as number).toBeGreaterThan(0);
    // The sub-agent runs with its own settings: the CLI's --max-output-tokens and --temperature are the parent's.
    expect(attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4.1",
      "gen_ai.response.model": "scripted",
      "gen_ai.conversation.id": childSession,
      "server.address": "127.0.0.1",
      "server.port": serverPort,
      "gen_ai.response.finish_reasons": [index === 0 ? "tool_calls" : "stop"],
      ...usageAttributes(usage),
      "ctxkit.turn": index,
      "ctxkit.cost.usd": estimateCost(usage, pricing),
      // explore runs without the parent's status bar (its tail, when any, is another policy's).
      "ctxkit.policy.status_bar_mode": "off",
      "ctxkit.policy.clearing": false,
      "ctxkit.policy.compaction": false,
      "ctxkit.cache_break": false,
    });
  }
  // Reported cache writes and reasoning tokens reach the span (the sub-agent's answer reports both).
  expect(childLast.span.attributes).toMatchObject({ "gen_ai.usage.cache_creation.input_tokens": 640, "gen_ai.usage.reasoning.output_tokens": 12 });
  expect(grep.span.parentSpanId).toBe(explore.span.spanId);
  const { "ctxkit.tool.duration_ms": grepDuration, ...grepAttributes } = grep.span.attributes;
  expect(grepDuration).toEqual(expect.any(Number));
  expect(grepAttributes).toEqual({
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": "grep",
    "gen_ai.tool.call.id": expect.stringMatching(/^call_\d+_0$/),
    "gen_ai.tool.type": "function",
    "ctxkit.tool.confirmation": "not_required",
    "ctxkit.tool.capped": false,
    "ctxkit.tool.spilled": false,
  });
  // The main agent's answer reports them too.
  expect(chats.at(-1)!.span.attributes).toMatchObject({ "gen_ai.usage.cache_creation.input_tokens": 1024, "gen_ai.usage.reasoning.output_tokens": 9 });
  // Contents stay out unless asked for.
  expect(spans.some((span) => Object.keys(span.attributes).some((key) => key.startsWith("gen_ai.input") || key.startsWith("gen_ai.output") || key === "gen_ai.system_instructions" || key === "gen_ai.tool.call.arguments"))).toBe(false);
  return drawSpanTree(roots);
}

describe("ctxkit run exports OpenTelemetry GenAI spans", () => {
  it("sends the run's span tree over OTLP/HTTP protobuf: runs, calls, tools, the sub-agent and the compaction, every attribute exact", async () => {
    receiver = await startOtlpReceiver();
    const { run, events } = await scriptedRun({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: "ctxkit-tests", OTEL_EXPORTER_OTLP_HEADERS: "authorization=Basic%20cGs6c2s=,x-team=ctx" });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("dropped");
    expect(receiver.requests.every((request) => request.contentType === "application/x-protobuf")).toBe(true);
    expect(receiver.requests[0]!.headers.authorization).toBe("Basic cGs6c2s=");
    expect(receiver.requests[0]!.headers["x-team"]).toBe("ctx");
    const tree = checkTrace(receiver.spans, events);
    process.stdout.write(`${tree.join("\n")}\n`);
  }, 90_000);

  it("sends the same tree as OTLP/HTTP JSON to the traces endpoint, with message contents when opted in", async () => {
    receiver = await startOtlpReceiver();
    const { run, events } = await scriptedRun({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.endpoint}/v1/traces`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "ctxkit-tests",
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
    });
    expect(run.code).toBe(0);
    expect(receiver.requests.every((request) => request.contentType === "application/json")).toBe(true);
    const root = receiver.spans.find((span) => span.parentSpanId === "")!;
    expect(JSON.parse(String(root.attributes["gen_ai.input.messages"]))).toEqual([{ role: "user", parts: [{ type: "text", content: "Read the notes." }] }]);
    expect(JSON.parse(String(root.attributes["gen_ai.output.messages"]))).toEqual([{ role: "assistant", parts: [{ type: "text", content: "Done: the fox is in every note." }] }]);
    const write = receiver.spans.find((span) => span.name === "execute_tool write_file")!;
    expect(JSON.parse(String(write.attributes["gen_ai.tool.call.arguments"]))).toEqual({ path: "summary.txt", content: "fox\n" });
    expect(typeof write.attributes["gen_ai.tool.call.result"]).toBe("string");
    // Each chat span records what that call sent: the system prompt as instructions, the trajectory and the tail.
    const chats = receiver.spans.filter((span) => span.name === "chat gpt-4.1" && span.parentSpanId === root.spanId).sort((a, b) => (a.startNs < b.startNs ? -1 : 1));
    const instructions = JSON.parse(String(chats[0]!.attributes["gen_ai.system_instructions"])) as Array<{ type: string; content: string }>;
    expect(instructions.length).toBeGreaterThan(0);
    expect(instructions.every((part) => part.type === "text" && part.content !== "")).toBe(true);
    const firstInput = JSON.parse(String(chats[0]!.attributes["gen_ai.input.messages"])) as Array<{ role: string; parts: unknown[] }>;
    expect(firstInput[0]).toEqual({ role: "user", parts: [{ type: "text", content: expect.stringContaining("Read the notes.") }] });
    const secondInput = JSON.parse(String(chats[1]!.attributes["gen_ai.input.messages"])) as Array<{ role: string; parts: Array<Record<string, unknown>> }>;
    expect(secondInput.find((message) => message.role === "assistant")!.parts[0]).toMatchObject({ type: "tool_call", name: "task", arguments: { agent: "explore" } });
    expect(secondInput.find((message) => message.role === "tool")!.parts[0]).toMatchObject({ type: "tool_call_response", id: "call_0_0", response: expect.any(String) });
    // Without the content attributes, the tree is the protobuf test's, checked the same way.
    const contentKeys = ["gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result"];
    const stripped = receiver.spans.map((span) => ({ ...span, attributes: Object.fromEntries(Object.entries(span.attributes).filter(([key]) => !contentKeys.includes(key))) }));
    checkTrace(stripped, events);
  }, 90_000);

  it("a collector that never answers neither breaks nor holds up the run: its spans are dropped and counted", async () => {
    const hanging: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    const address = hanging.address() as { port: number };
    try {
      const { run, events } = await scriptedRun({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${address.port}`, OTEL_SERVICE_NAME: "ctxkit-tests" });
      expect(run.code).toBe(0);
      expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });
      expect(run.stderr).toMatch(/traces: \d+ span\(s\) could not be sent to the OTLP endpoint and were dropped \(0 sent\)/);
    } finally {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  }, 90_000);

  // Wrong Langfuse keys: the line said only "N spans dropped (0 sent)", not that the collector refused the credentials.
  it("says why the collector refused the spans: its status and the head of its answer", async () => {
    const refusing: Server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        response.writeHead(401, { "content-type": "application/json" });
        response.end(JSON.stringify({ message: "Invalid credentials. Confirm that you've configured the correct host." }));
      });
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    const address = refusing.address() as { port: number };
    try {
      const { run } = await scriptedRun({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${address.port}` });
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/were dropped \(0 sent\); the last export failed: the OTLP endpoint answered HTTP 401: \{"message":"Invalid credentials\. Confirm that you've configured the correct host\."\} \(check the credentials in OTEL_EXPORTER_OTLP_HEADERS\)\./);
    } finally {
      refusing.closeAllConnections();
      await new Promise((resolve) => refusing.close(resolve));
    }
  }, 90_000);

  // A header Node refuses (a space in its name, a line break decoded from %0A) failed every export with
  // only "N spans dropped" said, and the export that threw left the batch processor's 10 s timer holding the process.
  it("a header HTTP cannot send is said at the start, and the run goes on untraced", async () => {
    receiver = await startOtlpReceiver();
    const { run, events } = await scriptedRun({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Basic abc%0Ax-injected: 1" });
    expect(run.code).toBe(0);
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });
    expect(run.stderr).toContain("ctxkit run: traces are not exported: OTEL_EXPORTER_OTLP_HEADERS holds a header HTTP cannot send ('Authorization'");
    expect(run.stderr).not.toContain("could not be sent");
    expect(receiver.spans).toEqual([]);
  }, 90_000);

  it("traces ctxkit chat as run: each message one invoke_agent span of the session's conversation, with its calls and tools", async () => {
    receiver = await startOtlpReceiver();
    server = await startOpenAIModelServer([{ toolCalls: [{ name: "list_files", arguments: {} }] }, "Two files.", "Bye."]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-tracing-"));
    const run = await runCli(["chat", "--base-url", server.baseURL, "--model", "gpt-4.1"], {
      cwd,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: "ctxkit-tests" },
      input: ["What is here?", { line: "Thanks.", waitFor: "Two files." }, { line: "/exit", waitFor: "Bye." }],
    });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("dropped");
    const roots = spanTree(receiver.spans);
    expect(roots.map((node) => node.span.name)).toEqual(["invoke_agent ctxkit", "invoke_agent ctxkit"]);
    const session = /Resume with: ctxkit chat --session (\S+)/.exec(run.stdout)![1]!;
    expect(roots.map((node) => node.span.attributes["gen_ai.conversation.id"])).toEqual([session, session]);
    expect(roots[0]!.children.map((node) => node.span.name)).toEqual(["chat gpt-4.1", "execute_tool list_files", "chat gpt-4.1"]);
    expect(roots[1]!.children.map((node) => node.span.name)).toEqual(["chat gpt-4.1"]);
    expect(roots[1]!.children[0]!.span.attributes).toMatchObject({ "gen_ai.conversation.id": session, "gen_ai.response.model": "scripted", "gen_ai.provider.name": "openai" });
  }, 90_000);

  it("honours the SDK's standard variables: resource attributes, the sampler, the signal-specific endpoint", async () => {
    receiver = await startOtlpReceiver();
    server = await startOpenAIModelServer(["One.", "Two."]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-tracing-env-"));
    const base = ["run", "--base-url", server.baseURL, "--model", "gpt-4.1", "--json", "Hi."];
    const traced = await runCli(base, {
      cwd,
      env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.endpoint}/v1/traces`, OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=ci,service.version=1%2E2", OTEL_SERVICE_NAME: "ctxkit-tests" },
    });
    expect(traced.code).toBe(0);
    expect(receiver.spans.map((span) => span.name)).toEqual(["chat gpt-4.1", "invoke_agent ctxkit"]);
    expect(receiver.spans[0]!.resource).toMatchObject({ "service.name": "ctxkit-tests", "deployment.environment.name": "ci", "service.version": "1.2" });
    const sampledOut = await runCli(base, { cwd, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_TRACES_SAMPLER: "always_off" } });
    expect(sampledOut.code).toBe(0);
    expect(sampledOut.stderr).not.toContain("traces");
    expect(receiver.spans).toHaveLength(2);
  }, 90_000);
});
