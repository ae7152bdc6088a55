import { afterEach, describe, expect, it } from "vitest";
import { createAgent, type AgentEvent } from "../src/index.js";
import { createAnthropic } from "../src/providers/anthropic/index.js";
import { startLoopbackServer, type LoopbackServer } from "../src/testing.js";
import { createStatusBar } from "../src/context/status-bar/index.js";
import { createTestClock } from "../src/loop/test-support.js";
import { anthropicSse, blockDelta, blockStart, blockStop, messageDelta, messageStart, messageStop } from "../src/providers/anthropic/test-support/fixtures.js";
import { createSupportDeskTools } from "../src/bench/status-bar/support-desk-tools.js";
import { supportDeskCallPlan, supportDeskLimits, supportDeskRequest, supportDeskSystemPrompt } from "../src/bench/status-bar/support-desk-scenario.js";

type Block = { type: string; text?: string; cache_control?: unknown };
type Body = { system?: Block[]; tools?: Array<{ cache_control?: unknown }>; messages: Array<{ role: string; content: Block[] }> };

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** An Anthropic Messages API stand-in that plays the support-desk plan (12 calls), then answers. */
async function startAnthropicServer(calls: number): Promise<LoopbackServer> {
  const plan = supportDeskCallPlan(calls);
  let call = 0;
  return startLoopbackServer(() => {
    const toolCalls = plan[call] ?? [];
    const index = call++;
    if (toolCalls.length === 0) {
      return anthropicSse([messageStart(), blockStart(0, { type: "text", text: "" }), blockDelta(0, { type: "text_delta", text: "Done." }), blockStop(0), messageDelta("end_turn", 2), messageStop()]);
    }
    return anthropicSse([
      messageStart(),
      ...toolCalls.flatMap((toolCall, position) => [
        blockStart(position, { type: "tool_use", id: `toolu_${index}_${position}`, name: toolCall.name, input: {} }),
        blockDelta(position, { type: "input_json_delta", partial_json: JSON.stringify(toolCall.arguments) }),
        blockStop(position),
      ]),
      messageDelta("tool_use", 20),
      messageStop(),
    ]);
  });
}

const isStatus = (block: Block) => block.type === "text" && (block.text ?? "").startsWith("<agent_status>");
const withoutMarkers = (body: Body) => JSON.parse(JSON.stringify(body, (key, value: unknown) => (key === "cache_control" ? undefined : value))) as Body;

/** Where the cache_control markers of a body sit: [message, block] pairs. */
function markedBlocks(body: Body): Array<[number, number]> {
  return body.messages.flatMap((message, messageIndex) => message.content.flatMap((block, blockIndex): Array<[number, number]> => (block.cache_control ? [[messageIndex, blockIndex]] : [])));
}

async function run(mode: "replace" | "append") {
  server = await startAnthropicServer(12);
  const statusBar = createStatusBar({ mode, limits: supportDeskLimits, environment: { workingDirectory: "/w", os: "linux", runtime: "node" } });
  const agent = createAgent({
    provider: createAnthropic({ model: "claude-sonnet-4-5", apiKey: "test-key", baseURL: `${server.url}/v1` }),
    system: supportDeskSystemPrompt,
    tools: createSupportDeskTools(),
    context: [statusBar],
    prefixGuard: { strict: true },
    runtime: { clock: createTestClock("2025-09-14T10:30:00.000Z") },
  });
  const events: AgentEvent[] = [];
  for await (const event of agent.run(supportDeskRequest)) events.push(event);
  expect(events.filter((event) => event.type === "error" || event.type === "warning")).toEqual([]);
  expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });
  return server.requests.map((request) => JSON.parse(request.body) as Body);
}

describe("the status bar on Anthropic's wire", () => {
  it("never carries a cache breakpoint in replace mode: the marker sits on the last trajectory block before it", async () => {
    const bodies = await run("replace");
    expect(bodies).toHaveLength(12);
    for (const body of bodies) {
      const lastMessage = body.messages.at(-1)!;
      const statusBlock = lastMessage.content.at(-1)!;
      expect(isStatus(statusBlock)).toBe(true);
      expect(statusBlock.cache_control).toBeUndefined();
      expect(body.messages.flatMap((message) => message.content).filter(isStatus)).toHaveLength(1);
      const [messageIndex, blockIndex] = markedBlocks(body).at(-1)!;
      // The newest marker is on the trajectory block right before the status.
      const flat = body.messages.flatMap((message, m) => message.content.map((_, b) => [m, b]));
      const statusPosition = flat.findIndex(([m, b]) => m === body.messages.length - 1 && b === lastMessage.content.length - 1);
      expect(flat[statusPosition - 1]).toEqual([messageIndex, blockIndex]);
    }
  });

  it("in append mode marks only blocks the next request resends unchanged: the stored status is written once and read back", async () => {
    const bodies = await run("append");
    for (const [index, body] of bodies.entries()) {
      const statuses = body.messages.flatMap((message) => message.content).filter(isStatus);
      expect(statuses).toHaveLength(index + 1);
      // The stored status is trajectory like any message: it carries the newest marker (written at
      // 1.25× once, read at 0.1× by every later call); moving the marker before it would send it
      // uncached now and write it next call — dearer, and the status would still never change.
      const [lastMessage, lastBlock] = markedBlocks(body).at(-1)!;
      expect(isStatus(body.messages[lastMessage]!.content[lastBlock]!)).toBe(true);
      const next = bodies[index + 1];
      if (next === undefined) continue;
      const [current, following] = [withoutMarkers(body), withoutMarkers(next)];
      for (const [messageIndex, blockIndex] of markedBlocks(body)) {
        // Everything up to and including the marked block comes back byte for byte in the next call,
        // so the cache entry the marker writes is read, never wasted.
        expect(following.messages.slice(0, messageIndex)).toEqual(current.messages.slice(0, messageIndex));
        expect(following.messages[messageIndex]!.content.slice(0, blockIndex + 1)).toEqual(current.messages[messageIndex]!.content.slice(0, blockIndex + 1));
      }
    }
  });

  it("in replace mode, too, every marker is on bytes the next request resends", async () => {
    const bodies = await run("replace");
    for (const [index, body] of bodies.slice(0, -1).entries()) {
      const [current, following] = [withoutMarkers(body), withoutMarkers(bodies[index + 1]!)];
      for (const [messageIndex, blockIndex] of markedBlocks(body)) {
        expect(following.messages[messageIndex]!.content.slice(0, blockIndex + 1)).toEqual(current.messages[messageIndex]!.content.slice(0, blockIndex + 1));
      }
    }
  });
});
