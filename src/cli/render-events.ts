import { escapeForTerminal } from "../context/escape-for-terminal.js";
import type { AgentEvent } from "../types/index.js";
import type { TerminalStyle } from "./terminal-style.js";

export interface EventRendererOptions {
  write: (text: string) => void;
  style: TerminalStyle;
  /** Show a spinner while waiting for the model (only on a terminal). */
  spinner: boolean;
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
  let spinnerTimer: NodeJS.Timeout | undefined;
  let spinnerFrame = 0;
  let lineOpen = false;
  let inThinking = false;

  const stopSpinner = () => {
    if (!spinnerTimer) return;
    clearInterval(spinnerTimer);
    spinnerTimer = undefined;
    write("\r\u001b[K");
  };
  const startSpinner = () => {
    if (!options.spinner || spinnerTimer) return;
    spinnerTimer = setInterval(() => write(`\r${style.dim(`${spinnerFrames[spinnerFrame++ % spinnerFrames.length]} waiting for the model…`)}`), 80);
  };
  const endLine = () => {
    if (lineOpen) write("\n");
    lineOpen = false;
    inThinking = false;
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
          }
          write(style.dim(escapeForTerminal(event.delta, { keepLineBreaks: true })));
          lineOpen = true;
          break;
        case "text_delta":
          stopSpinner();
          if (inThinking) endLine();
          write(escapeForTerminal(event.delta, { keepLineBreaks: true }));
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
          write(event.message.isError ? `  ${style.red("✗")} ${style.red(escapeForTerminal(truncate(firstLine, 160)))}\n` : `  ${style.green("✓")} ${style.dim(size)}\n`);
          break;
        }
        case "turn_end":
          stopSpinner();
          endLine();
          break;
        case "warning":
          stopSpinner();
          endLine();
          write(`${style.yellow("warning:")} ${escapeForTerminal(event.message, { keepLineBreaks: true })}\n`);
          break;
        case "error":
          stopSpinner();
          endLine();
          write(`${style.red("error:")} ${escapeForTerminal(event.message, { keepLineBreaks: true })}\n`);
          break;
        case "run_end":
          stopSpinner();
          endLine();
          break;
        default:
          break;
      }
    },
    stop: stopSpinner,
  };
}

function summarizeArguments(argumentsText: string): string {
  return escapeForTerminal(truncate(argumentsText.replace(/\s+/g, " "), 120));
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
