import { createAnthropic } from "../../providers/anthropic/create-anthropic.js";
import { anthropicSse, blockDelta, blockStart, blockStop, messageDelta, messageStart, messageStop, request } from "../../providers/anthropic/test-support/fixtures.js";
import { createOpenAICompatible } from "../../providers/openai-compatible/create-openai-compatible.js";
import type { Provider, ProviderEvent } from "../../providers/provider.js";
import { notOverflows, overflows } from "../../providers/shared/overflow-error-samples.js";
import { sseChunks, startLoopbackServer, type ScriptedHttpResponse } from "../../testing/loopback-server.js";
import { BatteryTally, runTrial, type BatteryResult } from "./hardening-trial.js";
import type { SeededRandom } from "./seeded-random.js";

interface ExpectedCall {
  id: string;
  name: string;
  argumentsText: string;
}
interface Expected {
  text: string;
  calls: ExpectedCall[];
}

/** Short limits, so a stalled server is caught in well under a second. */
const timeouts = { firstByteMs: 400, idleMs: 400 };
const eventSeparator = "\n\n";

/**
 * Fuzzed SSE/HTTP streams through real loopback HTTP into both providers. Each stream carries a
 * known answer; its bytes are cut into random chunks, index numbers are reused the way servers do,
 * and some streams are cut off, stalled or salted with junk. A stream must end with exactly the
 * answer or with a typed error — an answer with a call merged, a block replaced or content missing
 * is a silent merge.
 */
export async function runStreamBattery(trials: number, random: SeededRandom): Promise<BatteryResult> {
  const tally = new BatteryTally("streams");
  let next: ScriptedHttpResponse | (() => Promise<ScriptedHttpResponse>) = { status: 500 };
  const server = await startLoopbackServer(() => (typeof next === "function" ? next() : next));
  try {
    const providers = {
      openai: createOpenAICompatible({ vendor: "vllm", model: "m", baseURL: `${server.url}/v1`, apiKey: "k", retry: { maxRetries: 0 }, timeouts }),
      anthropic: createAnthropic({ model: "m", apiKey: "k", baseURL: `${server.url}/v1`, retry: { maxRetries: 0 }, timeouts }),
    };
    for (let trial = 0; trial < trials; trial += 1) {
      const vendor = trial % 2 === 0 ? "openai" : "anthropic";
      const expected = randomAnswer(random, trial);
      const events = vendor === "openai" ? openaiEvents(expected, random, trial) : anthropicEvents(expected, random, trial);
      const damage = random.below(6); // 0–3 keep the answer whole; 4 cuts it off; 5 adds junk
      next = shape(events, damage, random);
      const outcome = await runTrial(() => collect(providers[vendor]), 15_000);
      tally.trial(outcome, `${vendor} stream #${trial}`);
      if (outcome.value === undefined) continue;
      const verdict = judge(outcome.value, expected, damage >= 4);
      if (verdict === "merged") tally.fail("silentMerges", `${vendor} stream #${trial} (damage ${damage}): the answer came back changed without an error`);
      else tally.outcome(verdict);
    }
    await namedCases((response) => (next = response), providers, tally);
  } finally {
    await server.close();
  }
  return tally.finish();
}

function randomAnswer(random: SeededRandom, trial: number): Expected {
  const text = random.below(3) === 0 ? "" : `Answer ${trial}: ${"é🌡️ ok ".repeat(random.below(12))}`.trimEnd();
  const calls = Array.from({ length: random.below(4) }, (_, call) => ({
    id: `call_${trial}_${call}`,
    name: "read_file",
    argumentsText: JSON.stringify({ path: `file-${call}.txt`, note: "x".repeat(random.below(40)) }),
  }));
  return { text, calls: text === "" && calls.length === 0 ? [{ id: `call_${trial}_0`, name: "read_file", argumentsText: "{}" }] : calls };
}

/** OpenAI chunks; tool calls get wire indexes servers really send: all 0, or any earlier one. */
function openaiEvents(expected: Expected, random: SeededRandom, trial: number): string[] {
  const chunk = (delta: unknown, finish: string | null = null) => ({ id: `c${trial}`, object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta, finish_reason: finish }] });
  const events: unknown[] = [chunk({ role: "assistant", content: "" })];
  for (const piece of splitText(expected.text, random)) events.push(chunk({ content: piece }));
  const sameIndex = random.below(2) === 0;
  expected.calls.forEach((call, position) => {
    const index = sameIndex ? 0 : random.below(position + 1);
    splitText(call.argumentsText, random).forEach((piece, part) => {
      const fragment = part === 0 ? { index, id: call.id, type: "function", function: { name: call.name, arguments: piece } } : { index, function: { arguments: piece } };
      events.push(chunk({ tool_calls: [fragment] }));
    });
  });
  events.push(chunk({}, expected.calls.length > 0 ? "tool_calls" : "stop"));
  return sseChunks(events, { done: true });
}

/** Anthropic events; sometimes a later block starts at an index already in use (a server bug seen in the wild). */
function anthropicEvents(expected: Expected, random: SeededRandom, _trial: number): string[] {
  const events: Array<Record<string, unknown> & { type: string }> = [messageStart()];
  let index = 0;
  const reuse = random.below(4) === 0;
  if (expected.text !== "") {
    events.push(blockStart(index, { type: "text", text: "" }));
    for (const piece of splitText(expected.text, random)) events.push(blockDelta(index, { type: "text_delta", text: piece }));
    events.push(blockStop(index));
    index += 1;
  }
  for (const call of expected.calls) {
    const at = reuse ? Math.max(0, index - 1) : index;
    events.push(blockStart(at, { type: "tool_use", id: call.id, name: call.name, input: {} }));
    for (const piece of splitText(call.argumentsText, random)) events.push(blockDelta(at, { type: "input_json_delta", partial_json: piece }));
    events.push(blockStop(at));
    index += 1;
  }
  events.push(messageDelta(expected.calls.length > 0 ? "tool_use" : "end_turn", 5), messageStop());
  return anthropicSse(events).chunks as string[];
}

function splitText(text: string, random: SeededRandom): string[] {
  if (text === "") return [];
  const characters = [...text];
  const pieces: string[] = [];
  for (let start = 0; start < characters.length; ) {
    const length = 1 + random.below(Math.max(1, characters.length - start));
    pieces.push(characters.slice(start, start + length).join(""));
    start += length;
  }
  return pieces;
}

/** Re-cuts the stream's bytes at random points (mid-event, mid-character) and applies the damage. */
function shape(events: string[], damage: number, random: SeededRandom): ScriptedHttpResponse {
  let bytes = Buffer.from(events.join(""), "utf8");
  if (damage === 1) bytes = Buffer.from(events.join("").replaceAll("\n", "\r\n"), "utf8");
  if (damage === 2) bytes = Buffer.from(events.map((event) => `: keep-alive\n\n${event}`).join(""), "utf8");
  if (damage === 4) bytes = bytes.subarray(0, random.below(bytes.length));
  if (damage === 5) {
    const at = bytes.indexOf(eventSeparator, random.below(bytes.length));
    const junk = random.pick(["data: {not json\n\n", "data: \u0000\u0001\n\n", `data: ${JSON.stringify({ choices: "x", type: 7 })}\n\n`, "event: content_block_delta\ndata: {\"index\":99}\n\n"]);
    if (at >= 0) bytes = Buffer.concat([bytes.subarray(0, at + 2), Buffer.from(junk), bytes.subarray(at + 2)]);
  }
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; ) {
    const length = 1 + random.below(64);
    chunks.push(bytes.subarray(start, start + length));
    start += length;
  }
  return { status: 200, headers: { "content-type": "text/event-stream" }, chunks, ...(damage === 3 ? { delayMs: 1 } : {}), ...(damage === 4 ? { destroyAfterChunks: true } : {}) };
}

async function collect(provider: Provider, signal?: AbortSignal): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of provider.stream(request({ tools: [] }), signal)) events.push(event);
  return events;
}

function judge(events: ProviderEvent[], expected: Expected, damaged: boolean): string {
  const last = events.at(-1);
  if (last?.type === "error") return damaged ? "damaged: typed error" : `whole: typed error (${last.error.code})`;
  if (last?.type !== "done") return "merged";
  const text = last.response.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
  const calls = last.response.content.flatMap((part) => (part.type === "tool_call" ? [{ id: part.id, name: part.name, argumentsText: part.argumentsText }] : []));
  const same = text === expected.text && JSON.stringify(calls) === JSON.stringify(expected.calls);
  return same ? (damaged ? "damaged: answer intact" : "whole: answer exact") : "merged";
}

type Providers = Record<"openai" | "anthropic", Provider>;
type Serve = (response: ScriptedHttpResponse | (() => Promise<ScriptedHttpResponse>)) => void;

async function namedCases(serve: Serve, providers: Providers, tally: BatteryTally): Promise<void> {
  const check = async (name: string, vendor: keyof Providers, response: ScriptedHttpResponse | (() => Promise<ScriptedHttpResponse>), pass: (last: ProviderEvent | undefined) => string | undefined, boundMs = 10_000) => {
    serve(response);
    const abort = new AbortController();
    const outcome = await runTrial(() => collect(providers[vendor], abort.signal), boundMs);
    abort.abort();
    tally.trial(outcome, name);
    const problem = outcome.value === undefined ? (outcome.frozen ? "no answer within the bound" : String(outcome.error)) : pass(outcome.value.at(-1));
    if (problem !== undefined && !outcome.frozen) tally.fail("silentMerges", `${name}: ${problem}`);
    tally.namedCase(name, problem === undefined, problem ?? `${Math.round(outcome.durationMs)} ms`);
  };
  const errorCode = (last: ProviderEvent | undefined) => (last?.type === "error" ? last.error.code : last?.type);

  const chunk = (delta: unknown, finish: string | null = null) => ({ id: "c", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta, finish_reason: finish }] });
  const twoCalls = sseChunks(
    [
      chunk({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "read_file", arguments: '{"path":"a"}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: "call_b", type: "function", function: { name: "read_file", arguments: '{"path":"b"}' } }] }),
      chunk({}, "tool_calls"),
    ],
    { done: true },
  );
  await check("OpenAI: two tool calls at the same index", "openai", { headers: { "content-type": "text/event-stream" }, chunks: twoCalls }, (last) => {
    const calls = last?.type === "done" ? last.response.content.filter((part) => part.type === "tool_call") : [];
    return JSON.stringify(calls.map((part) => part.type === "tool_call" && [part.id, part.argumentsText])) === JSON.stringify([["call_a", '{"path":"a"}'], ["call_b", '{"path":"b"}']])
      ? undefined
      : `got ${JSON.stringify(calls)}`;
  });
  const streamed = "x".repeat(64);
  const reused = anthropicSse([messageStart(), blockStart(0, { type: "text", text: "" }), blockDelta(0, { type: "text_delta", text: streamed }), blockStart(0, { type: "text", text: "" }), messageStop()]);
  await check("Anthropic: content_block_start at an index in use", "anthropic", reused, (last) =>
    last?.type === "error" && JSON.stringify(last.partial.content) === JSON.stringify([{ type: "text", text: streamed }]) ? undefined : `ended with ${errorCode(last)}`,
  );
  const stalled = { headers: { "content-type": "text/event-stream" }, chunks: [sseChunks([chunk({ content: "Hel" })])[0]!, "data: never\n\n"], delayMs: 30_000 };
  await check("stream stalls after the headers (idle limit 0.4 s)", "openai", stalled, (last) => (errorCode(last) === "provider_timeout" ? undefined : `ended with ${errorCode(last)}`));
  await check("server never answers (first-byte limit 0.4 s)", "anthropic", () => new Promise<ScriptedHttpResponse>(() => undefined), (last) =>
    errorCode(last) === "provider_timeout" ? undefined : `ended with ${errorCode(last)}`,
  );
  for (const [source, status, body] of overflows) {
    const response = status === undefined ? { headers: { "content-type": "text/event-stream" }, chunks: [`data: ${body}\n\n`] } : { status, headers: { "content-type": "application/json" }, body };
    await check(`overflow: ${source}`, status === 413 ? "anthropic" : "openai", response, (last) => (errorCode(last) === "context_overflow" ? undefined : `ended with ${errorCode(last)}`));
  }
  for (const [source, status, body] of notOverflows) {
    await check(`not an overflow: ${source}`, "openai", { status: status ?? 400, headers: { "content-type": "application/json" }, body }, (last) =>
      last?.type === "error" && last.error.code !== "context_overflow" && (status !== 429 || last.error.isRetryable) ? undefined : `ended with ${errorCode(last)}`,
    );
  }
}
