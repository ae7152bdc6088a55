import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createLineQueue } from "./line-queue.js";
import { dirname } from "node:path";
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from "../session/private-storage.js";
import { createInterface, type Interface } from "node:readline";
import { PassThrough } from "node:stream";
import { createHistorySearch } from "./history-search.js";

/** What the chat loop reads from: whole messages at the prompt, single answers at a confirmation. */
export interface ChatInput {
  /** The next message (pasted text and `\`-continued lines joined); undefined when input ended. */
  nextMessage(prompt: string): Promise<string | undefined>;
  /**
   * A confirmation's answer, typed after the question. On a terminal, lines typed before it (while
   * the model worked) are not taken as the answer: they are queued as messages for after the turn.
   */
  nextAnswer(): Promise<string | undefined>;
  /** Messages typed while the agent was busy, in order. */
  takeQueued(): string | undefined;
  onInterrupt(handler: () => void): void;
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
}

/**
 * On a terminal: readline with line editing, history (persisted), `/` completion, bracketed paste
 * (a paste is one message, shown as `[pasted N lines]`), `\` at the end of a line (or Alt+Enter)
 * to continue on the next, Ctrl-R history search, and type-ahead kept for after the turn. From a pipe: one message a line.
 */
export function createChatInput(options: ChatInputOptions): ChatInput {
  return options.input.isTTY === true && typeof options.input.setRawMode === "function" ? createTerminalInput(options) : createPipedInput(options);
}

function createTerminalInput(options: ChatInputOptions): ChatInput {
  const pastes = new Map<string, string>();
  const source = new PassThrough() as PassThrough & { isTTY: boolean; setRawMode: (mode: boolean) => void };
  source.isTTY = true;
  source.setRawMode = (mode) => options.input.setRawMode!(mode);
  let pasting: string | undefined;
  // Bracketed paste: the terminal wraps pasted text in ESC[200~ … ESC[201~. Multi-line pastes become
  // one token on the line (expanded on submit), so their newlines never submit a message.
  const onData = (chunk: Buffer | string) => {
    let text = chunk.toString();
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
    for (const piece of out.split(/(\r)/)) if (piece !== "") source.write(piece);
  };
  const history = readHistory(options.historyFile);
  const search = createHistorySearch({
    history: () => (reader as Interface & { history?: string[] }).history ?? [],
    write: (text) => options.output.write(text),
    redraw: () => reader.prompt(true),
  });
  options.input.on("data", onData);
  options.output.write("\u001b[?2004h");

  const reader: Interface = createInterface({
    input: source,
    output: options.output,
    terminal: true,
    history,
    historySize: maxHistory,
    removeHistoryDuplicates: true,
    completer: (line: string) => {
      if (!line.startsWith("/")) return [[], line];
      const commands = typeof options.commands === "function" ? options.commands() : options.commands;
      const hits = commands.filter((command) => command.startsWith(line));
      return [hits.length > 0 ? hits : [...commands], line];
    },
  });
  const lines = createLineQueue();
  let busy = false;
  const queued: string[] = [];
  const queuedParts: string[] = [];
  reader.on("line", (line) => {
    if (lines.hasWaiter || !busy) lines.push(line);
    else {
      // Type-ahead continues with \ like the prompt does.
      if (line.endsWith("\\")) {
        queuedParts.push(line.slice(0, -1));
        return;
      }
      const message = expand([...queuedParts.splice(0), line].join("\n"), pastes);
      if (message.trim() !== "") {
        queued.push(message);
        options.onQueued(message);
      }
    }
  });
  reader.on("close", () => lines.end());
  const readLine = lines.next;

  return {
    async nextMessage(prompt) {
      busy = false;
      const parts: string[] = [];
      reader.setPrompt(prompt);
      reader.prompt();
      while (true) {
        const line = await readLine();
        if (line === undefined) return parts.length > 0 ? parts.join("\n") : undefined;
        if (line.endsWith("\\")) {
          parts.push(line.slice(0, -1));
          reader.setPrompt("… ");
          reader.prompt();
          continue;
        }
        parts.push(line);
        const message = expand(parts.join("\n"), pastes);
        writeHistory(options.historyFile, reader);
        busy = true;
        return message;
      }
    },
    async nextAnswer() {
      // What was typed before the question is not an answer to it.
      for (const line of lines.drain()) {
        const message = expand(line, pastes);
        if (message.trim() === "") continue;
        queued.push(message);
        options.onQueued(message);
      }
      const answer = await readLine();
      return answer === undefined ? undefined : expand(answer, pastes);
    },
    takeQueued: () => queued.shift(),
    onInterrupt: (handler) => reader.on("SIGINT", handler),
    close() {
      options.output.write("\u001b[?2004l");
      options.input.removeListener("data", onData);
      reader.close();
      options.input.setRawMode?.(false);
      (options.input as NodeJS.ReadableStream & { pause?: () => void }).pause?.();
    },
  };
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
    nextAnswer: readLine,
    takeQueued: () => undefined,
    onInterrupt: (handler) => {
      interruptHandlers.push(handler);
      process.on("SIGINT", handler);
    },
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

function readHistory(file: string | undefined): string[] {
  if (!file) return [];
  try {
    // readline keeps the newest entry first.
    return readFileSync(file, "utf8").split("\n").filter((line) => line !== "").reverse().slice(0, maxHistory);
  } catch {
    return [];
  }
}

function writeHistory(file: string | undefined, reader: Interface): void {
  if (!file) return;
  const entries = (reader as Interface & { history?: string[] }).history ?? [];
  try {
    mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
    writeFileSync(file, `${[...entries].reverse().join("\n")}\n`, { mode: PRIVATE_FILE_MODE });
  } catch {
    // History is a convenience: a read-only data directory must not stop the chat.
  }
}
