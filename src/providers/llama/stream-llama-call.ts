import type { LlamaGrammarEvaluationState, Token, TokenBias } from "node-llama-cpp";
import { ContextOverflowError, CtxkitError } from "../../types/errors.js";
import type { ModelRequest } from "../../types/model-request.js";
import { emptyUsage, type Usage } from "../../types/usage.js";
import type { ProviderEvent } from "../provider.js";
import { abortError } from "../shared/fetch-with-retry.js";
import { createLlamaResponseBuilder } from "./llama-response-builder.js";
import type { LlamaProviderOptions, LlamaToolChoice } from "./llama-provider-options.js";
import type { LlamaEngine } from "./load-llama-engine.js";
import { reuseSequencePrefix } from "./reuse-sequence-prefix.js";
import type { ToolGrammars } from "./tool-grammars.js";

/** What one call did to the KV cache, for tests and benchmarks. */
export interface LlamaCallRecord {
  promptTokens: number[];
  /** Tokens kept from the previous call's KV cache. */
  reusedTokens: number;
  /** Prompt tokens the engine evaluated (its own token meter), = prompt - reused. */
  evaluatedTokens: number;
  timeToFirstTokenMs?: number;
}

export interface LlamaCallInput {
  request: ModelRequest;
  signal: AbortSignal | undefined;
  engine: () => Promise<LlamaEngine>;
  grammars: () => Promise<ToolGrammars>;
  prompt: () => string;
  options: LlamaProviderOptions;
  contextSize: number;
  record: (call: LlamaCallRecord) => void;
}

const defaultMaxOutputTokens = 1024;
const defaultTemperature = 0.6;

/**
 * One model call on the engine. Never throws: a failure (engine missing, template error, context
 * overflow, abort) is the terminal `error` event with what was produced so far.
 */
export async function* streamLlamaCall(input: LlamaCallInput): AsyncGenerator<ProviderEvent> {
  let startedAt = performance.now();
  const response = createLlamaResponseBuilder();
  const usage: Usage = emptyUsage();
  yield { type: "start" };
  let engine: LlamaEngine | undefined;
  let promptLength = 0;
  try {
    engine = await input.engine();
    // Loading the model once is not part of a call's latency.
    startedAt = performance.now();
    const { model, sequence } = engine;
    const promptTokens = model.tokenize(input.prompt(), true);
    promptLength = promptTokens.length;
    usage.inputTokens = promptTokens.length;
    if (promptTokens.length >= input.contextSize) {
      throw new ContextOverflowError(`the prompt has ${promptTokens.length} tokens and the context holds ${input.contextSize}`);
    }
    if (input.signal?.aborted) throw abortError();
    const sampling = await samplingFor(input, engine);
    const reused = await reuseSequencePrefix(sequence, promptTokens);
    usage.cachedInputTokens = reused;
    const meterBefore = evaluatedSoFar(engine);
    const maxOutputTokens = Math.min(input.request.settings.maxOutputTokens ?? input.options.maxOutputTokens ?? defaultMaxOutputTokens, input.contextSize - promptTokens.length);
    const generated: Token[] = [];
    let stoppedByLength = false;
    let meterAfterPrefill: number | undefined;
    const iterator = sequence.evaluate(promptTokens.slice(reused), {
      temperature: input.request.settings.temperature ?? input.options.temperature ?? defaultTemperature,
      ...(input.options.seed !== undefined ? { seed: input.options.seed } : {}),
      grammarEvaluationState: () => sampling.grammarState(),
      ...(sampling.tokenBias ? { tokenBias: sampling.tokenBias } : {}),
    });
    try {
      for await (const token of iterator) {
        if (generated.length === 0) {
          usage.timeToFirstTokenMs = Math.round(performance.now() - startedAt);
          meterAfterPrefill = evaluatedSoFar(engine);
        }
        if (input.signal?.aborted) throw abortError();
        generated.push(token);
        await sampling.accept(token);
        yield* response.push(model.detokenize(generated, true));
        if (generated.length >= maxOutputTokens) {
          stoppedByLength = true;
          break;
        }
      }
    } finally {
      input.record({
        promptTokens,
        reusedTokens: reused,
        evaluatedTokens: (meterAfterPrefill ?? evaluatedSoFar(engine)) - meterBefore,
        ...(usage.timeToFirstTokenMs !== undefined ? { timeToFirstTokenMs: usage.timeToFirstTokenMs } : {}),
      });
    }
    if (input.signal?.aborted) throw abortError();
    yield* response.end();
    usage.outputTokens = generated.length;
    usage.reasoningTokens = response.thinkingText() === "" ? 0 : model.tokenize(response.thinkingText(), false).length;
    usage.latencyMs = Math.round(performance.now() - startedAt);
    const content = response.content();
    const stopReason = stoppedByLength ? "length" : content.some((part) => part.type === "tool_call") ? "tool_calls" : "stop";
    yield { type: "done", response: { content, stopReason, rawStopReason: stoppedByLength ? "max_tokens" : "eog" }, usage };
  } catch (error) {
    yield* response.end();
    const failure = error instanceof CtxkitError ? error : new CtxkitError("provider_response_invalid", `The llama engine failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    yield { type: "error", error: failure, partial: { content: response.content(), stopReason: failure.code === "aborted" ? "aborted" : "error" }, usage };
  } finally {
    // The sequence keeps exactly the prompt: the next call's reuse is then the common prefix of the
    // two prompts, which is what the prefix guard predicts from the rendered requests.
    if (engine && engine.sequence.nextTokenIndex > promptLength) {
      await engine.sequence.eraseContextTokenRanges([{ start: promptLength, end: engine.sequence.nextTokenIndex }]);
    }
  }
}

/** Prompt tokens count as input, and the one per batch whose logits are read as output. */
function evaluatedSoFar(engine: LlamaEngine): number {
  return engine.sequence.tokenMeter.usedInputTokens + engine.sequence.tokenMeter.usedOutputTokens;
}

interface CallSampling {
  grammarState(): LlamaGrammarEvaluationState | undefined;
  tokenBias?: TokenBias;
  accept(token: Token): Promise<void>;
}

async function samplingFor(input: LlamaCallInput, engine: LlamaEngine): Promise<CallSampling> {
  const { request, options } = input;
  const { module, model } = engine;
  const choice: LlamaToolChoice = typeof options.toolChoice === "function" ? options.toolChoice(request) : (options.toolChoice ?? "auto");
  const requested = typeof options.activeTools === "function" ? options.activeTools(request) : options.activeTools;
  const active = new Set((requested ?? request.tools.map((tool) => tool.name)).filter((name) => request.tools.some((tool) => tool.name === name)));
  const openTag = model.tokenize("<tool_call>", true);
  const openToken = openTag.length === 1 ? openTag[0] : undefined;

  if (choice === "none" || active.size === 0) {
    if (choice === "required") throw new CtxkitError("option_invalid", "toolChoice is 'required' but no active tool is in the request. Pass activeTools that name the request's tools.");
    const tokenBias = new module.TokenBias(model.tokenizer);
    if (openToken !== undefined) tokenBias.set(openToken, "never");
    return { grammarState: () => undefined, tokenBias, accept: async () => {} };
  }
  const grammars = await input.grammars();
  const parallel = options.parallelToolCalls ?? true;
  if (choice === "required") {
    const state = new module.LlamaGrammarEvaluationState({ model, grammar: await grammars.get(request.tools, active, "response", parallel) });
    return { grammarState: () => state, accept: async () => {} };
  }
  // `auto`: free text until the model opens a call; from there the grammar holds it to active tools.
  const afterOpen = await grammars.get(request.tools, active, "after_open_tag", parallel);
  let state: LlamaGrammarEvaluationState | undefined;
  return {
    grammarState: () => state,
    accept: async (token) => {
      if (state === undefined && token === openToken) state = new module.LlamaGrammarEvaluationState({ model, grammar: afterOpen });
    },
  };
}
