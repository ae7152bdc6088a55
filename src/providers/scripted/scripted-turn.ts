import type { CtxkitError, StopReason, Usage } from "../../types/index.js";

export interface ScriptedToolCall {
  /** Defaults to `call_<turn>_<index>`. */
  id?: string;
  name: string;
  /** Serialised to `argumentsText` with JSON.stringify unless `argumentsText` is given. */
  arguments?: unknown;
  /** Raw text as a model would produce it — set this to script invalid JSON. */
  argumentsText?: string;
}

/**
 * One scripted model turn. A string is shorthand for `{ text }`. `error` ends the stream with that
 * error after streaming whatever text was given (a partial response).
 */
export type ScriptedTurn =
  | string
  | {
      text?: string;
      thinking?: string;
      thinkingSignature?: string;
      toolCalls?: ScriptedToolCall[];
      stopReason?: StopReason;
      usage?: Partial<Usage>;
      error?: CtxkitError;
      /** Wait this long before each streamed chunk (to test aborts and timeouts). */
      delayMs?: number;
    };
