import type { ScriptedTurn } from "../providers/scripted/scripted-turn.js";
import { sseChunks, startLoopbackServer, type LoopbackServer, type RecordedRequest } from "./loopback-server.js";
import { commonPrefixLength } from "../tokens/common-prefix-tokens.js";

export interface OpenAIModelServerOptions {
  /**
   * What the reported `cached_tokens` reuse: the byte prefix shared with the previous request
   * (default), or the longest one shared with any of the last 256 requests — like a real prefix
   * cache (vLLM's, OpenAI's), which keeps the prefixes of every recent request, so a sub-agent's
   * first call can hit its parent's prefix although other calls came in between.
   */
  promptCache?: "previous-request" | "all-requests";
}

const cacheEntries = 256;

function longestCachedPrefix(bodies: readonly string[], body: string): number {
  return bodies.reduce((longest, earlier) => Math.max(longest, commonPrefixLength(earlier, body)), 0);
}

export interface OpenAIModelServer extends LoopbackServer {
  /** The base URL to give a client: `${url}/v1`. */
  baseURL: string;
}

/**
 * A loopback server that speaks OpenAI's `/v1/chat/completions` streaming wire format and answers
 * with scripted turns — a stand-in for vLLM, Ollama or OpenAI in end-to-end tests of programs that
 * use ctxkit (including the `ctxkit` command itself). Turns can be a list (one per call) or a
 * function of the parsed request body.
 */
export async function startOpenAIModelServer(
  turns: ScriptedTurn[] | ((body: { messages: Array<{ role: string; content?: unknown }> }, call: number) => ScriptedTurn),
  options: OpenAIModelServerOptions = {},
): Promise<OpenAIModelServer> {
  let call = 0;
  let previousBody = "";
  const earlierBodies: string[] = [];
  const server = await startLoopbackServer((request: RecordedRequest) => {
    if (request.path !== "/v1/chat/completions") {
      return { status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: `No route ${request.path}` } }) };
    }
    const body = JSON.parse(request.body) as { messages: Array<{ role: string; content?: unknown }> };
    const index = call++;
    const turn = typeof turns === "function" ? turns(body, index) : turns[index];
    if (turn === undefined) {
      return { status: 500, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: `The scripted server has no turn ${index}.` } }) };
    }
    const script = typeof turn === "string" ? { text: turn } : turn;
    const cached = options.promptCache === "all-requests" ? longestCachedPrefix(earlierBodies, request.body) : commonPrefixLength(previousBody, request.body);
    previousBody = request.body;
    earlierBodies.push(request.body);
    if (earlierBodies.length > cacheEntries) earlierBodies.shift();
    const chunk = (delta: unknown, finishReason: string | null = null) => ({
      id: `chatcmpl-${index}`,
      object: "chat.completion.chunk",
      created: 1_767_225_600,
      model: "scripted",
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });
    const toolCalls = script.toolCalls ?? [];
    const events: unknown[] = [chunk({ role: "assistant", content: "" })];
    if (script.thinking) events.push(chunk({ reasoning_content: script.thinking }));
    for (const piece of (script.text ?? "").match(/[\s\S]{1,24}/g) ?? []) events.push(chunk({ content: piece }));
    toolCalls.forEach((toolCall, position) => {
      const argumentsText = toolCall.argumentsText ?? JSON.stringify(toolCall.arguments ?? {});
      events.push(chunk({ tool_calls: [{ index: position, id: toolCall.id ?? `call_${index}_${position}`, type: "function", function: { name: toolCall.name, arguments: argumentsText } }] }));
    });
    events.push(chunk({}, toolCalls.length > 0 ? "tool_calls" : "stop"));
    const promptTokens = Math.ceil(request.body.length / 4);
    events.push({
      id: `chatcmpl-${index}`,
      object: "chat.completion.chunk",
      created: 1_767_225_600,
      model: "scripted",
      choices: [],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: 20,
        total_tokens: promptTokens + 20,
        // A turn's `usage` may add cache writes (as OpenRouter reports them) and reasoning tokens.
        prompt_tokens_details: { cached_tokens: Math.floor(cached / 4), ...(script.usage?.cacheWriteTokens ? { cache_write_tokens: script.usage.cacheWriteTokens } : {}) },
        ...(script.usage?.reasoningTokens ? { completion_tokens_details: { reasoning_tokens: script.usage.reasoningTokens } } : {}),
      },
    });
    // A turn's `delayMs` comes after each streamed chunk, as the scripted provider waits: a reply that takes time.
    return { status: 200, headers: { "content-type": "text/event-stream" }, chunks: sseChunks(events, { done: true }), ...(script.delayMs ? { delayMs: script.delayMs } : {}) };
  });
  return { ...server, baseURL: `${server.url}/v1` };
}

