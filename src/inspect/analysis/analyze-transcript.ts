import { findLayerDifference, type RequestLayer } from "../../context/prefix-guard/index.js";
import { loadPricingSelection, selectPricing, type NamedPricing, type PricingSelection } from "../../session/load-pricing.js";
import type { CostOptions } from "../../tokens/pricing.js";
import { detectFindings } from "../findings/detect-findings.js";
import type { ImportedTranscript } from "../imported-transcript.js";
import type { AnalyzedCall, AnalyzedTranscript, TranscriptTotals } from "./analyzed-transcript.js";
import { createApproximatePromptMeter } from "./approximate-prompt-meter.js";
import { describeLayerBreak, describeTemplateBreak, type CallBreak } from "./call-break.js";
import type { InspectTokenizer, Measurement, PromptMeter } from "./prompt-meter.js";
import { createQwen3PromptMeter } from "./qwen3-prompt-meter.js";
import { createRequestLayerCache } from "./request-layer-cache.js";
import { computeTranscriptTotals, type CallExtras, type CallPricing } from "./transcript-totals.js";
import { priceNotes } from "./price-notes.js";
import { usableReportedUsage } from "./usable-reported-usage.js";
import { explainTranscriptMisses } from "./explain-transcript-misses.js";

export interface TranscriptAnalyzerOptions {
  /** Default "qwen3": exact, with Qwen3's chat template. */
  tokenizer?: InspectTokenizer;
  /** Prices for the cost; default the built-in catalog, looked up by each transcript's model. */
  pricing?: PricingSelection;
  cacheWriteTtl?: CostOptions["cacheWriteTtl"];
  /** The prompt-cache lifetime to judge expiries by until a call reports 1-hour writes (default 5 minutes). */
  cacheLifetimeMs?: number;
  /** Qwen3 only: render each message once ("incremental", default) or the whole template per call ("full"). */
  rendering?: "incremental" | "full";
  /**
   * Measure with this meter (of the same tokenizer) and keep adding to its caches: the viewer
   * renders a call's prompt again later from the same cached segments.
   */
  meter?: PromptMeter;
  /** Called after each call is measured with the milliseconds it took (the performance benchmark). */
  onCallMeasured?: (index: number, milliseconds: number) => void;
}

export interface TranscriptAnalyzer {
  analyze(transcript: ImportedTranscript): AnalyzedTranscript;
  /** Segment-cache counters of the meters used so far (for the performance benchmark). */
  stats(): { cachedSegments: number; segmentLookups: number };
}

/**
 * Measures recorded runs: per call the prompt tokens, the prefix reusable from the previous call,
 * the reported cached tokens, the composition and the cache breaks; then totals, cost and
 * findings. Pure apart from its caches (share one analyzer across the transcripts of a run). The
 * incremental Qwen3 rendering is checked against a full render on each transcript's last call;
 * on a difference that transcript is measured again with full renders, and a note says so.
 */
export function createTranscriptAnalyzer(options: TranscriptAnalyzerOptions = {}): TranscriptAnalyzer {
  const tokenizer = options.tokenizer ?? "qwen3";
  const createMeter = (rendering?: "incremental" | "full"): PromptMeter =>
    tokenizer === "qwen3" ? createQwen3PromptMeter({ rendering: rendering ?? options.rendering }) : createApproximatePromptMeter(tokenizer);
  const meter = options.meter ?? createMeter();
  let fallback: PromptMeter | undefined;
  const pricing = options.pricing ?? loadPricingSelection(undefined);
  const layerCache = createRequestLayerCache();

  return {
    analyze(transcript) {
      const notes: string[] = [];
      let measured = measureCalls(transcript, meter);
      if (!measured.verified) {
        fallback ??= createMeter("full");
        measured = measureCalls(transcript, fallback);
        notes.push("The incremental Qwen3 rendering differed from a full render of the template; this transcript was measured with full renders.");
      }
      const { calls, extras } = measured;
      const usedMeter = measured.verified ? meter : fallback!;
      const callPricing = pricingPerCall(transcript, pricing);
      const costOptions: CostOptions = options.cacheWriteTtl === undefined ? {} : { cacheWriteTtl: options.cacheWriteTtl };
      const { totals, callCosts } = computeTranscriptTotals(transcript.calls, calls, extras, callPricing, costOptions);
      notes.push(...notesFor(transcript, usedMeter, totals));
      callCosts?.forEach((cost, index) => {
        const call = calls[index];
        if (call !== undefined && cost !== undefined) call.cost = cost;
      });
      const lifetimeMs = options.cacheLifetimeMs ?? (options.cacheWriteTtl === "1h" ? 60 * 60 * 1000 : undefined);
      explainTranscriptMisses(transcript, calls, (index) => callPricing.prices(index), lifetimeMs === undefined ? {} : { lifetimeMs });
      const result: AnalyzedTranscript = {
        id: transcript.id,
        format: transcript.format,
        file: transcript.file,
        tokenizer: { name: usedMeter.tokenizer, description: usedMeter.description, exact: usedMeter.exact },
        calls,
        totals,
        findings: detectFindings({ transcript, calls }),
        notes,
      };
      if (transcript.model !== undefined) result.model = transcript.model;
      return result;
    },
    stats() {
      const stats = meter.stats();
      const extra = fallback?.stats();
      return extra === undefined ? stats : { cachedSegments: stats.cachedSegments + extra.cachedSegments, segmentLookups: stats.segmentLookups + extra.segmentLookups };
    },
  };

  function measureCalls(transcript: ImportedTranscript, usedMeter: PromptMeter): { calls: AnalyzedCall[]; extras: CallExtras[]; verified: boolean } {
    const calls: AnalyzedCall[] = [];
    const extras: CallExtras[] = [];
    let previous: { measurement: Measurement; body: RequestLayer[] } | undefined;
    let last: Measurement | undefined;
    for (const [index, call] of transcript.calls.entries()) {
      const started = options.onCallMeasured === undefined ? 0 : performance.now();
      const measurement = usedMeter.measure(call.request);
      const layers = layerCache.layersOf(call.request);
      const breaks: CallBreak[] = [];
      let reusable = 0;
      if (previous !== undefined) {
        const difference = extendsBody(previous.body, layers) ? undefined : findLayerDifference(previous.body, layers);
        const reuse = usedMeter.reuse(previous.measurement, measurement, difference);
        reusable = Math.min(reuse.tokens, measurement.promptTokens);
        const lostTokens = Math.max(0, previous.measurement.promptTokens - previous.measurement.tailTokens - reusable);
        const context = { reusableTokens: reusable, lostTokens };
        if (difference !== undefined) {
          const declared = call.declaredBreak;
          breaks.push(
            describeLayerBreak(difference, {
              ...context,
              previous: previous.measurement.request,
              next: call.request,
              previousBody: previous.body,
              nextLayers: layers,
              ...(declared === undefined ? {} : { declared }),
            }),
          );
        } else if (reuse.templateBreak !== undefined) breaks.push(describeTemplateBreak(reuse.templateBreak.messageIndex, context));
      }
      calls.push({
        index,
        promptTokens: measurement.promptTokens,
        reusablePrefixTokens: reusable,
        reportedPromptTokens: usableReportedUsage(call.reportedUsage)?.promptTokens ?? null,
        reportedCachedTokens: usableReportedUsage(call.reportedUsage)?.cachedTokens ?? null,
        newTokens: measurement.promptTokens - reusable,
        composition: measurement.composition,
        tailTokens: measurement.tailTokens,
        breaks,
      });
      const response = call.response;
      extras.push({ tailTokens: measurement.tailTokens, responseTokens: () => (response === undefined ? 0 : usedMeter.countMessage(response)) });
      previous = { measurement, body: layers.filter((layer) => layer.layer !== "tail") };
      last = measurement;
      options.onCallMeasured?.(index, performance.now() - started);
    }
    return { calls, extras, verified: last === undefined || usedMeter.verify(last) };
  }
}

/** Each call is priced by its own model (a run may switch models), looked up once per model. */
function pricingPerCall(transcript: ImportedTranscript, selection: PricingSelection): CallPricing {
  const byModel = new Map<string | undefined, NamedPricing | undefined>();
  const model = (index: number) => transcript.calls[index]?.model ?? transcript.model;
  return {
    model,
    prices(index) {
      const name = model(index);
      if (!byModel.has(name)) byModel.set(name, selectPricing(selection, name));
      return byModel.get(name);
    },
  };
}

function notesFor(transcript: ImportedTranscript, meter: PromptMeter, totals: TranscriptTotals): string[] {
  const notes: string[] = [];
  if (meter.tokenizer === "qwen3" && transcript.model !== undefined && !/qwen/i.test(transcript.model)) {
    notes.push(
      `Counted with Qwen3's tokenizer and chat template (exact for Qwen3); ${transcript.model} tokenizes differently, ` +
        "so its own counts (the reported columns) differ. Shares and breaks carry over.",
    );
  }
  if (!transcript.systemKnown) notes.push("The transcript does not record the system prompt; it is not counted.");
  if (!transcript.toolsKnown) notes.push("The transcript does not record the tool definitions; they are not counted (pass --tools <openai-tools.json>).");
  notes.push(...(transcript.notes ?? []));
  notes.push(...priceNotes(transcript, totals));
  if (totals.zeroUsageCalls > 0) {
    notes.push(
      `The provider reported all-zero usage on ${totals.zeroUsageCalls} of ${transcript.calls.length} calls; those reports are ignored ` +
        "(reported columns show —) and their cost uses the tokens counted here.",
    );
  }
  return notes;
}

/**
 * True when every layer of the previous body reappears unchanged, in order, at the start of `next`.
 * `findLayerDifference` answers the same but sums the byte length of every layer on the way (for the
 * break's byte offset), which made each call cost O(context bytes); this check compares cached hashes only.
 */
function extendsBody(previousBody: readonly RequestLayer[], next: readonly RequestLayer[]): boolean {
  if (next.length < previousBody.length) return false;
  for (let index = 0; index < previousBody.length; index++) {
    const before = previousBody[index]!;
    const after = next[index]!;
    if (before.hash !== after.hash || before.layer !== after.layer) return false;
  }
  return true;
}
