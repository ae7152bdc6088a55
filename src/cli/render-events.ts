import { escapeForTerminal } from "../context/escape-for-terminal.js";
import type { AgentEvent } from "../types/index.js";
import { toCliMessage } from "./cli-error-message.js";
import { createMarkdownStream, type MarkdownStream } from "./markdown-stream.js";
import { createStreamedTextEscaper } from "./escape-streamed-text.js";
import type { TerminalStyle } from "./terminal-style.js";

export interface EventRendererOptions {
  write: (text: string) => void;
  style: TerminalStyle;
  /** Where warnings and errors go (stderr for `run`); default `write`. */
  writeDiagnostic?: (text: string) => void;
  diagnosticStyle?: TerminalStyle;
  /** Show a spinner while waiting for the model (only on a terminal). */
  spinner: boolean;
  /** Render the model's replies as terminal Markdown at this width (only on a terminal). */
  markdownWidth?: number;
  /** Show one line per thinking block instead of its text. */
  collapseThinking?: boolean;
  /** The terminal's width in columns: a tool error's line is cut to fit it (default: 160 characters, for a pipe). */
  width?: number;
  /**
   * A warning's text (default `toCliMessage`: its advice in `ctxkit run`'s flags). A command that
   * takes other flags (`ctxkit demo`) gives advice true for it.
   */
  warningText?: (warning: { code: string; message: string }) => string;
}

export interface EventRenderer {
  handle(event: AgentEvent): void;
  stop(): void;
}

const spinnerFrames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * Renders agent events for a person: the model's text as it streams, one compact line per tool
 * call and its outcome, warnings and errors. Thinking is shown dimmed.
 */
export function createEventRenderer(options: EventRendererOptions): EventRenderer {
  const { write, style } = options;
  const writeDiagnostic = options.writeDiagnostic ?? write;
  const diagnosticStyle = options.diagnosticStyle ?? style;
  const warningText = options.warningText ?? toCliMessage;
  // "  ✗ " takes four columns; a line that fits never wraps into the next one.
  const errorWidth = options.width === undefined ? 160 : Math.max(20, options.width - 4);
  let spinnerTimer: NodeJS.Timeout | undefined;
  let spinnerFrame = 0;
  let lineOpen = false;
  let inThinking = false;
  let thinkingChars = 0;
  let markdown: MarkdownStream | undefined;
  const replyText = createStreamedTextEscaper();

  const stopSpinner = () => {
    if (!spinnerTimer) return;
    clearInterval(spinnerTimer);
    spinnerTimer = undefined;
    write("\r\u001b[K");
  };
  let spinnerLabel = () => "waiting for the model…";
  const startSpinner = (label = () => "waiting for the model…") => {
    spinnerLabel = label;
    if (!options.spinner || spinnerTimer) return;
    spinnerTimer = setInterval(() => write(`\r${style.dim(`${spinnerFrames[spinnerFrame++ % spinnerFrames.length]} ${spinnerLabel()}`)}`), 80);
  };
  // What a rendered block writes clears the spinner's line first.
  const writeRendered = (text: string) => {
    stopSpinner();
    write(text);
  };
  const endThinking = () => {
    if (!inThinking) return;
    if (options.collapseThinking) write(style.dim(`(${thinkingChars.toLocaleString("en-US")} characters)`));
    inThinking = false;
  };
  const endLine = () => {
    endThinking();
    const rest = replyText.flush();
    if (rest !== "" && markdown !== undefined) markdown.push(rest);
    else if (rest !== "") {
      write(rest);
      lineOpen = true;
    }
    markdown?.end();
    markdown = undefined;
    if (lineOpen) write("\n");
    lineOpen = false;
  };

  return {
    handle(event) {
      switch (event.type) {
        case "request":
          startSpinner();
          break;
        case "thinking_delta":
          stopSpinner();
          if (!inThinking) {
            endLine();
            inThinking = true;
            thinkingChars = 0;
            // Labelled and dim, so the reasoning is never mistaken for the answer.
            write(style.dim(style.bold("thinking: ")));
          }
          thinkingChars += event.delta.length;
          if (!options.collapseThinking) write(style.dim(escapeForTerminal(event.delta, { keepLineBreaks: true })));
          lineOpen = true;
          break;
        case "text_delta":
          if (inThinking) endLine();
          if (options.markdownWidth !== undefined) {
            markdown ??= createMarkdownStream(writeRendered, options.markdownWidth);
            const stream = markdown;
            stream.push(replyText.escape(event.delta));
            // A paragraph is shown once it ends: until then the spinner says that the reply is
            // arriving, so a long paragraph (or a model that stalls inside one) is not a blank screen.
            if (stream.held() > 0) startSpinner(() => `receiving the reply… ${stream.held().toLocaleString("en-US")} characters`);
            break;
          }
          stopSpinner();
          write(replyText.escape(event.delta));
          lineOpen = !event.delta.endsWith("\n");
          break;
        case "tool_call_end":
          stopSpinner();
          endLine();
          write(`${style.cyan("●")} ${style.bold(escapeForTerminal(event.name))} ${style.dim(summarizeArguments(event.argumentsText))}\n`);
          break;
        case "tool_result": {
          const firstLine = event.message.content.split("\n", 1)[0] ?? "";
          const size = `${event.message.content.length.toLocaleString("en-US")} chars, ${event.durationMs} ms`;
          write(event.message.isError ? `  ${style.red("✗")} ${style.red(escapeForTerminal(truncate(firstLine, errorWidth)))}\n` : `  ${style.green("✓")} ${style.dim(size)}\n`);
          break;
        }
        case "turn_end":
          stopSpinner();
          endLine();
          break;
        case "warning":
          stopSpinner();
          endLine();
          writeDiagnostic(`${diagnosticStyle.yellow("warning:")} ${escapeForTerminal(warningText(event), { keepLineBreaks: true })}\n`);
          break;
        case "cache_miss":
          // One line per call whose cached tokens fell short of the reusable prefix: the cause and
          // what it re-billed, so a person sees why a turn cost more without reading --json events.
          stopSpinner();
          endLine();
          writeDiagnostic(`${diagnosticStyle.yellow("cache miss:")} ${escapeForTerminal(event.summary)}\n`);
          break;
        case "error":
          stopSpinner();
          endLine();
          writeDiagnostic(`${diagnosticStyle.red("error:")} ${escapeForTerminal(warningText(event), { keepLineBreaks: true })}\n`);
          break;
        case "run_end":
          stopSpinner();
          endLine();
          break;
        default:
          break;
      }
    },
    stop() {
      stopSpinner();
      endLine();
    },
  };
}

function summarizeArguments(argumentsText: string): string {
  return escapeForTerminal(truncate(argumentsText.replace(/\s+/g, " "), 120));
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
