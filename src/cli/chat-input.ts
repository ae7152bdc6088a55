import { createInterface, type Interface } from "node:readline";
import { PassThrough } from "node:stream";
import { readChatHistory, writeChatHistory } from "./chat-history-file.js";
import { createHistorySearch } from "./history-search.js";
import { createLineQueue } from "./line-queue.js";

/** What the chat loop reads from: whole messages at the prompt, single answers at a confirmation. */
export interface ChatInput {
  /** The next message (pasted text and `\`-continued lines joined); undefined when input ended. */
  nextMessage(prompt: string): Promise<string | undefined>;
  /**
   * A confirmation's answer, typed after the question. On a terminal, lines typed before it (while
   * the model worked) are not taken as the answer: they are queued as messages for after the turn.
   * Undefined when input ended, or when `signal` aborts first (Ctrl-C stopped the turn).
   */
  nextAnswer(signal?: AbortSignal): Promise<string | undefined>;
  /** Messages typed while the agent was busy, in order. */
  takeQueued(): string | undefined;
  /**
   * Ctrl-C. At the prompt the typed text is dropped first, as bash does (`discarded` says whether
   * there was any), and a fresh prompt is drawn once the handlers ran.
   */
  onInterrupt(handler: (interrupt: { discarded: boolean }) => void): void;
  /** Told when the person types anything but Ctrl-C (on a terminal). */
  onTyping(handler: () => void): void;
  close(): void;
}

const escape = "\u001b";
const pasteStart = "\u001b[200~";
const pasteEnd = "\u001b[201~";
const maxHistory = 1000;

export interface ChatInputOptions {
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  output: NodeJS.WritableStream & { isTTY?: boolean };
  /** Where the prompt history is kept (one file per workspace); only on a terminal. */
  historyFile?: string;
  /** Completions for a line starting with `/` (read on every Tab: skills are found after the input starts). */
  commands: readonly string[] | (() => readonly string[]);
  /** Told when a line typed during a turn is queued. */
  onQueued: (message: string) => void;
  /** Whether a sent message goes into the history (default: every one); `/exit` need not. */
  keepInHistory?: (message: string) => boolean;
}

/**
 * On a terminal: readline with line editing, history (persisted), `/` completion, bracketed paste
 * (a paste is one message, shown as `[pasted N lines]`), `\` at the end of a line (or Alt+Enter)
 * to continue on the next, Ctrl-R history search, and type-ahead kept for after the turn. From a pipe: one message a line.
 */
export function createChatInput(options: ChatInputOptions): ChatInput {
  return options.input.isTTY === true && typeof options.input.setRawMode === "function" ? createTerminalInput(options) : createPipedInput(options);
}

/** readline's editing state, which its typings mark read-only (the line, the cursor, the history position). */
interface EditableReader {
  line: string;
  cursor: number;
  history: string[];
  historyIndex: number;
  prevRows?: number;
  _refreshLine?: () => void;
}

// A key readline passes through as text (a private-use character), typed by the history search for
// a line break inside a message it recalls: readline itself takes "\n" as Enter.
const lineBreakKey = "\uE000";

function createTerminalInput(options: ChatInputOptions): ChatInput {
  const pastes = new Map<string, string>();
  const source = new PassThrough() as PassThrough & { isTTY: boolean; setRawMode: (mode: boolean) => void };
  source.isTTY = true;
  source.setRawMode = (mode) => options.input.setRawMode!(mode);
  let pasting: string | undefined;
  const typingHandlers: Array<() => void> = [];
  // Bracketed paste: the terminal wraps pasted text in ESC[200~ … ESC[201~. Multi-line pastes become
  // one token on the line (expanded on submit), so their newlines never submit a message.
  const onData = (chunk: Buffer | string) => {
    let text = chunk.toString();
    if (!text.includes("\u0003")) for (const handler of typingHandlers) handler();
    let out = "";
    while (text.length > 0) {
      if (pasting === undefined) {
        const start = text.indexOf(pasteStart);
        const plain = start === -1 ? text : text.slice(0, start);
        // Alt+Enter (ESC CR) continues the message like a trailing backslash.
        out += plain.split(`${escape}\r`).join("\\\r").split(`${escape}\n`).join("\\\r");
        if (start === -1) break;
        pasting = "";
        text = text.slice(start + pasteStart.length);
      } else {
        const end = text.indexOf(pasteEnd);
        pasting += end === -1 ? text : text.slice(0, end);
        if (end === -1) break;
        const pasted = pasting.replace(/\r\n?/g, "\n");
        pasting = undefined;
        text = text.slice(end + pasteEnd.length);
        const lines = pasted.split("\n").length;
        if (lines === 1) out += pasted;
        else {
          const token = `[pasted ${lines} lines #${pastes.size + 1}]`;
          pastes.set(token, pasted);
          out += token;
        }
      }
    }
    out = search.filter(out);
    // Node's readline reads a chunk holding a return as typed-ahead lines and then ignores the
    // cursor keys in it; a return on its own keeps each key what it is.
    for (const piece of out.split(/(\r|\uE000)/)) {
      if (piece === lineBreakKey) insertLineBreak();
      else if (piece !== "") source.write(piece);
    }
  };
  const history = readChatHistory(options.historyFile, maxHistory);
  const search = createHistorySearch({
    history: () => editable().history,
    write: (text) => options.output.write(text),
    redraw: () => reader.prompt(true),
    lineBreakKey,
  });
  options.input.on("data", onData);
  options.output.write("\u001b[?2004h");

  const reader: Interface = createInterface({
    input: source,
    output: options.output,
    terminal: true,
    history,
    // The history is kept here, not by readline: one entry per message as sent (a paste's text, a
    // continued message whole), and nothing for a confirmation's answer. With size 0 readline
    // adds nothing itself and still walks the list with Up and Down.
    historySize: 0,
    completer: (line: string) => {
      if (!line.startsWith("/")) return [[], line];
      const commands = typeof options.commands === "function" ? options.commands() : options.commands;
      const hits = commands.filter((command) => command.startsWith(line));
      return [hits.length > 0 ? hits : [...commands], line];
    },
  });
  const editable = () => reader as unknown as EditableReader;
  keepOldestOnUp(reader);
  const insertLineBreak = () => {
    const state = editable();
    state.line = `${state.line.slice(0, state.cursor)}\n${state.line.slice(state.cursor)}`;
    state.cursor += 1;
    state._refreshLine?.();
  };
  const remember = (message: string) => {
    if (message.trim() === "" || options.keepInHistory?.(message) === false) return;
    const entries = editable().history;
    const index = entries.indexOf(message);
    if (index !== -1) entries.splice(index, 1);
    entries.unshift(message);
    if (entries.length > maxHistory) entries.length = maxHistory;
    writeChatHistory(options.historyFile, entries);
  };
  const lines = createLineQueue();
  let busy = false;
  let closed = false;
  /** Set while a question waits for its answer. */
  let answering = false;
  /** Set while the prompt waits for a message: the prompt, and the lines of it typed so far (continued with \\). */
  let atPrompt: { prompt: string; parts: string[] } | undefined;
  const queued: string[] = [];
  const queuedParts: string[] = [];
  reader.on("line", (line) => {
    // Walking the history starts again from the newest entry (readline does it only when it keeps the history).
    editable().historyIndex = -1;
    if (lines.hasWaiter || !busy) lines.push(line);
    else {
      // Type-ahead continues with \ like the prompt does.
      if (line.endsWith("\\")) {
        queuedParts.push(line.slice(0, -1));
        return;
      }
      const message = expand([...queuedParts.splice(0), line].join("\n"), pastes);
      if (message.trim() !== "") {
        remember(message);
        queued.push(message);
        options.onQueued(message);
      }
    }
  });
  reader.on("close", () => {
    closed = true;
    lines.end();
  });
  const interruptHandlers: Array<(interrupt: { discarded: boolean }) => void> = [];
  reader.on("SIGINT", () => {
    const waiting = atPrompt;
    if (waiting === undefined) {
      // At a question (a confirmation): ^C after the half-typed answer, which is dropped; the turn's
      // stop then ends the question.
      if (answering) {
        const state = editable();
        reader.write("", { ctrl: true, name: "e" });
        options.output.write("^C\r\n");
        state.line = "";
        state.cursor = 0;
        state.prevRows = 0;
      }
      for (const handler of interruptHandlers) handler({ discarded: false });
      return;
    }
    // As bash does: ^C after what was typed, which is dropped, then a fresh prompt.
    const state = editable();
    const discarded = state.line !== "" || waiting.parts.length > 0;
    reader.write("", { ctrl: true, name: "e" });
    options.output.write("^C\r\n");
    state.line = "";
    state.cursor = 0;
    state.prevRows = 0;
    state.historyIndex = -1;
    waiting.parts.length = 0;
    for (const handler of interruptHandlers) handler({ discarded });
    if (closed) return;
    reader.setPrompt(waiting.prompt);
    reader.prompt();
  });
  const readLine = lines.next;

  return {
    async nextMessage(prompt) {
      busy = false;
      const waiting = { prompt, parts: [] as string[] };
      atPrompt = waiting;
      reader.setPrompt(prompt);
      reader.prompt();
      try {
        while (true) {
          const line = await readLine();
          if (line === undefined) return waiting.parts.length > 0 ? waiting.parts.join("\n") : undefined;
          if (line.endsWith("\\")) {
            waiting.parts.push(line.slice(0, -1));
            reader.setPrompt("… ");
            reader.prompt();
            continue;
          }
          waiting.parts.push(line);
          const message = expand(waiting.parts.join("\n"), pastes);
          remember(message);
          busy = true;
          return message;
        }
      } finally {
        atPrompt = undefined;
      }
    },
    async nextAnswer(signal) {
      // What was typed before the question is not an answer to it.
      for (const line of lines.drain()) {
        const message = expand(line, pastes);
        if (message.trim() === "") continue;
        remember(message);
        queued.push(message);
        options.onQueued(message);
      }
      answering = true;
      try {
        const answer = await readLine(signal);
        return answer === undefined ? undefined : expand(answer, pastes);
      } finally {
        answering = false;
      }
    },
    takeQueued: () => queued.shift(),
    onInterrupt: (handler) => interruptHandlers.push(handler),
    onTyping: (handler) => typingHandlers.push(handler),
    close() {
      options.output.write("\u001b[?2004l");
      options.input.removeListener("data", onData);
      reader.close();
      options.input.setRawMode?.(false);
      (options.input as NodeJS.ReadableStream & { pause?: () => void }).pause?.();
    },
  };
}

/**
 * Up at the oldest entry stays on it. Node's readline goes one step further, to an empty line (or
 * the text typed before walking the history); its step is wrapped on this one reader, and left
 * alone on a Node whose readline has no such step.
 */
function keepOldestOnUp(reader: Interface): void {
  let prototype: object | null = Object.getPrototypeOf(reader) as object | null;
  let step: symbol | undefined;
  while (prototype && !step) {
    step = Object.getOwnPropertySymbols(prototype).find((symbol) => symbol.description === "_historyPrev");
    prototype = Object.getPrototypeOf(prototype) as object | null;
  }
  const original = step === undefined ? undefined : (reader as unknown as Record<symbol, unknown>)[step];
  if (step === undefined || typeof original !== "function") return;
  Object.defineProperty(reader, step, {
    configurable: true,
    writable: true,
    value(this: EditableReader) {
      const before = { line: this.line, cursor: this.cursor, index: this.historyIndex };
      (original as () => void).call(this);
      if (this.history.length === 0 || this.historyIndex < this.history.length) return;
      Object.assign(this, { line: before.line, cursor: before.cursor, historyIndex: before.index });
      this._refreshLine?.();
    },
  });
}

function createPipedInput(options: ChatInputOptions): ChatInput {
  const reader = createInterface({ input: options.input, terminal: false });
  const interruptHandlers: Array<() => void> = [];
  const lines = createLineQueue();
  reader.on("line", (line) => lines.push(line));
  reader.on("close", () => lines.end());
  const readLine = lines.next;
  return {
    async nextMessage(prompt) {
      options.output.write(prompt);
      const parts: string[] = [];
      while (true) {
        const line = await readLine();
        if (line === undefined) return parts.length > 0 ? parts.join("\n") : undefined;
        if (line.endsWith("\\")) {
          parts.push(line.slice(0, -1));
          continue;
        }
        parts.push(line);
        return parts.join("\n");
      }
    },
    // From a pipe, answers follow in order: a script writes the task, then its answers.
    nextAnswer: (signal) => readLine(signal),
    takeQueued: () => undefined,
    onInterrupt: (handler) => {
      const listener = () => {
        options.output.write("\n");
        handler({ discarded: false });
      };
      interruptHandlers.push(listener);
      process.on("SIGINT", listener);
    },
    onTyping: () => undefined,
    close: () => {
      for (const handler of interruptHandlers) process.removeListener("SIGINT", handler);
      reader.close();
    },
  };
}

function expand(line: string, pastes: Map<string, string>): string {
  let text = line;
  for (const [token, pasted] of pastes) text = text.split(token).join(pasted);
  return text;
}
