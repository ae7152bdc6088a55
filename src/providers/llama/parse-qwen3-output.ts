/** What the generated text holds, in order, as the parser recognises it. */
export type Qwen3OutputEvent =
  | { type: "thinking"; delta: string }
  | { type: "text"; delta: string }
  | { type: "tool_call"; text: string };

const markers = ["<think>", "</think>", "<tool_call>", "</tool_call>"] as const;

export interface Qwen3OutputParser {
  /** Feeds newly generated text; returns what it completes. A possible marker's start is held back. */
  push(text: string): Qwen3OutputEvent[];
  /** Ends the output: held-back text is flushed; an unfinished tool call comes back as its text. */
  end(): Qwen3OutputEvent[];
}

/**
 * Splits Qwen3's generated text into thinking (`<think>…</think>`), text and tool calls
 * (`<tool_call>{json}</tool_call>`), as the chat template writes them, incrementally so deltas can be
 * streamed. The tag whitespace the template adds (`\n` after `<think>`, `\n\n` after `</think>`, the
 * newlines around a call's JSON) is dropped, so re-rendering the parts gives the same text.
 */
export function createQwen3OutputParser(): Qwen3OutputParser {
  let mode: "text" | "thinking" | "tool_call" = "text";
  let pending = "";
  let toolCallText = "";
  let trimNextLeadingNewlines = false;

  const emit = (events: Qwen3OutputEvent[], text: string): void => {
    let delta = text;
    if (trimNextLeadingNewlines) {
      delta = delta.replace(/^\n+/, "");
      if (delta !== "") trimNextLeadingNewlines = false;
    }
    if (delta === "") return;
    if (mode === "tool_call") toolCallText += delta;
    else events.push({ type: mode === "thinking" ? "thinking" : "text", delta });
  };

  const push = (text: string): Qwen3OutputEvent[] => {
    const events: Qwen3OutputEvent[] = [];
    pending += text;
    for (;;) {
      const found = firstMarker(pending);
      if (found === undefined) break;
      emit(events, pending.slice(0, found.index));
      pending = pending.slice(found.index + found.marker.length);
      switchMode(found.marker, events);
    }
    const keep = heldBackLength(pending);
    emit(events, pending.slice(0, pending.length - keep));
    pending = pending.slice(pending.length - keep);
    return events;
  };

  const switchMode = (marker: (typeof markers)[number], events: Qwen3OutputEvent[]): void => {
    if (marker === "<think>" && mode === "text") mode = "thinking";
    else if (marker === "</think>" && mode === "thinking") mode = "text";
    else if (marker === "<tool_call>" && mode === "text") {
      mode = "tool_call";
      toolCallText = "";
    } else if (marker === "</tool_call>" && mode === "tool_call") {
      events.push({ type: "tool_call", text: toolCallText.trim() });
      mode = "text";
    } else {
      emit(events, marker);
      return;
    }
    trimNextLeadingNewlines = true;
  };

  const end = (): Qwen3OutputEvent[] => {
    const events: Qwen3OutputEvent[] = [];
    emit(events, pending);
    pending = "";
    if (mode === "tool_call") {
      mode = "text";
      events.push({ type: "text", delta: `<tool_call>\n${toolCallText}` });
    }
    return events;
  };

  return { push, end };
}

function firstMarker(text: string): { index: number; marker: (typeof markers)[number] } | undefined {
  let best: { index: number; marker: (typeof markers)[number] } | undefined;
  for (const marker of markers) {
    const index = text.indexOf(marker);
    if (index >= 0 && (best === undefined || index < best.index)) best = { index, marker };
  }
  return best;
}

/** Length of the longest suffix of `text` that is a proper prefix of a marker. */
function heldBackLength(text: string): number {
  for (let length = Math.min(text.length, 12); length > 0; length -= 1) {
    const suffix = text.slice(text.length - length);
    if (markers.some((marker) => marker.startsWith(suffix))) return length;
  }
  return 0;
}
