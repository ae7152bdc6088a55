import { describe, expect, it } from "vitest";
import type { Provider } from "../providers/provider.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { createAnthropic } from "../providers/anthropic/index.js";
import type { ResponsesCompaction } from "../providers/openai-responses/compact-responses.js";
import type { ModelRequest } from "../types/index.js";
import { createDurableProvider } from "./create-durable-provider.js";
import { createDurableCallScopes, createDurableClock, type DurableRunContext } from "./durable-run-context.js";
import { durableTestContext, recordingStep } from "./test-support/durable-test-context.js";

type Compacting = Provider & { compact(request: ModelRequest, signal?: AbortSignal): Promise<ResponsesCompaction> };

describe("a durable run's provider with a compaction call (/responses/compact)", () => {
  it("makes each pass one step: the run's clock moves to its time, and a replay gets the recorded window without a second pass", async () => {
    const recorded = new Map<string, unknown>();
    const counted: string[] = [];
    const contextOf = (replay: boolean) =>
      durableTestContext({
        step: recordingStep(recorded, replay),
        now: () => 5_000,
        clock: createDurableClock(1_000),
        tables: { countModelCall: async (_runId: string, key: string) => void counted.push(key) },
      });
    let passes = 0;
    const inner: Compacting = {
      ...createScriptedProvider({ turns: [{ text: "ok" }] }),
      // Each pass's encrypted item differs, as the server's do.
      compact: async () => ({ items: [JSON.stringify({ type: "compaction", encrypted_content: `pass-${++passes}` })], usage: { inputTokens: 900, outputTokens: 40 } as ResponsesCompaction["usage"] }),
    };
    const request: ModelRequest = { system: { blocks: [] }, tools: [], messages: [], cacheBreakpoints: [], settings: {} } as unknown as ModelRequest;

    const live = contextOf(false);
    const liveProvider = createDurableProvider(inner, live, { maxCallTokens: 10_000 }) as Compacting;
    expect(typeof liveProvider.compact).toBe("function");
    const first = await liveProvider.compact(request);
    expect(first.items).toEqual(['{"type":"compaction","encrypted_content":"pass-1"}']);
    expect(live.clock.now().getTime()).toBe(5_000);
    expect(counted).toEqual(["compact-0"]);

    const replay = contextOf(true);
    const replayed = await (createDurableProvider(inner, replay, { maxCallTokens: 10_000 }) as Compacting).compact(request);
    expect(replayed).toEqual(first);
    expect(passes).toBe(1);
    expect(replay.clock.now().getTime()).toBe(5_000);
  });

  it("offers no compaction call for a provider without one", () => {
    const context = { scopes: createDurableCallScopes(), clock: createDurableClock(0) } as unknown as DurableRunContext;
    expect("compact" in createDurableProvider(createScriptedProvider({ turns: [] }), context, { maxCallTokens: 1 })).toBe(false);
  });

  it("says the inner provider's effort and efforts, and serializes its output_config, so a replay rebuilds the bytes sent (Anthropic)", () => {
    const context = { scopes: createDurableCallScopes(), clock: createDurableClock(0) } as unknown as DurableRunContext;
    const inner = createAnthropic({ model: "claude-opus-4-6", apiKey: "k", effort: "low" });
    const wrapped = createDurableProvider(inner, context, { maxCallTokens: 1 });
    expect(wrapped).toMatchObject({ reasoningEffort: "low", reasoningEfforts: ["low", "medium", "high", "xhigh", "max"] });
    const request = { system: { staticText: "s" }, tools: [], messages: [], cacheBreakpoints: [], settings: { reasoningEffort: "max" } } as unknown as ModelRequest;
    expect(wrapped.serialize(request).body).toContain('"output_config":{"effort":"max"}');
  });

  it("hands a call's threshold crossings to the run's policy only when the call was made, not when a replay returns it", async () => {
    const recorded = new Map<string, unknown>();
    const contextOf = (replay: boolean) =>
      durableTestContext({
        step: recordingStep(recorded, replay),
        now: () => 5_000,
        clock: createDurableClock(1_000),
        tables: { countModelCall: async () => 1 },
        budget: {
          scope: "team",
          thresholds: [0.8],
          crossings: [],
          shared: {
            reserve: async () => ({ reserved: true }),
            settle: async (_scope: string, _key: string, used: number) => ({ limitTokens: 1_000, spentBefore: 750, spentAfter: 750 + used }),
          },
        },
      });
    const inner = createScriptedProvider({ turns: [{ text: "ok", usage: { inputTokens: 90, outputTokens: 10 } }] });
    const request: ModelRequest = { system: { blocks: [] }, tools: [], messages: [], cacheBreakpoints: [], settings: {} } as unknown as ModelRequest;
    const drain = async (provider: Provider) => {
      for await (const _event of provider.stream(request)) void _event;
    };

    const live = contextOf(false);
    await drain(createDurableProvider(inner, live, { maxCallTokens: 100 }));
    expect(live.budget!.crossings).toEqual([{ threshold: 0.8, spentTokens: 850, limitTokens: 1_000 }]);

    const replay = contextOf(true);
    await drain(createDurableProvider(inner, replay, { maxCallTokens: 100 }));
    expect(replay.budget!.crossings).toEqual([]);
  });

  it("reports the crossings of a crashed attempt's charge even when the call is then refused: its refusal says it used nothing", async () => {
    const context = durableTestContext({
      runId: "run-2",
      now: () => 5_000,
      clock: createDurableClock(1_000),
      tables: { countModelCall: async () => 2 },
      budget: {
        scope: "team",
        thresholds: [0.8],
        crossings: [],
        shared: {
          chargeInterrupted: async () => ({ charged: 100, spend: { limitTokens: 1_000, spentBefore: 750, spentAfter: 850 } }),
          reserve: async () => ({ reserved: false, waitHelps: false }),
        },
      },
    });
    const request: ModelRequest = { system: { blocks: [] }, tools: [], messages: [], cacheBreakpoints: [], settings: {} } as unknown as ModelRequest;
    const events = [];
    for await (const event of createDurableProvider(createScriptedProvider({ turns: [{ text: "never" }] }), context, { maxCallTokens: 100 }).stream(request)) events.push(event);
    expect(events).toMatchObject([{ type: "error", error: { code: "budget_exceeded" }, usage: { inputTokens: 0, outputTokens: 0 } }]);
    expect(context.budget!.crossings).toEqual([{ threshold: 0.8, spentTokens: 850, limitTokens: 1_000 }]);
  });
});
