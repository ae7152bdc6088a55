import type { Message, ModelRequest } from "../../types/index.js";
import { commonPrefixLength } from "../../tokens/common-prefix-tokens.js";

export interface CallRow {
  call: number;
  promptTokens: number;
  reusableTokens: number;
  newTokens: number;
  appended: string;
}

export interface DemoReport {
  rows: CallRow[];
  totals: { promptTokens: number; reusableTokens: number; newTokens: number; reusableShare: number };
}

/**
 * Per model call: prompt tokens, tokens shared with the previous call's prompt (what a prefix cache
 * can reuse), the new tokens, and what the trajectory gained since the previous call.
 */
export function buildDemoReport(requests: readonly ModelRequest[], encode: (request: ModelRequest) => number[]): DemoReport {
  const rows: CallRow[] = [];
  let previousTokens: number[] = [];
  let previousMessageCount = 0;
  for (const [index, request] of requests.entries()) {
    const tokens = encode(request);
    const reusableTokens = commonPrefixLength(previousTokens, tokens);
    rows.push({
      call: index + 1,
      promptTokens: tokens.length,
      reusableTokens,
      newTokens: tokens.length - reusableTokens,
      appended: describeMessages(request.messages.slice(previousMessageCount)),
    });
    previousTokens = tokens;
    previousMessageCount = request.messages.length;
  }
  const promptTokens = sum(rows.map((row) => row.promptTokens));
  const reusableTokens = sum(rows.map((row) => row.reusableTokens));
  return {
    rows,
    totals: { promptTokens, reusableTokens, newTokens: promptTokens - reusableTokens, reusableShare: promptTokens === 0 ? 0 : reusableTokens / promptTokens },
  };
}

export function formatDemoReport(report: DemoReport, tokenizerName: string): string {
  const header = ["call", "prompt tokens", "reusable", "new", "appended since previous call"];
  const body = report.rows.map((row) => [String(row.call), format(row.promptTokens), format(row.reusableTokens), format(row.newTokens), row.appended]);
  const { totals } = report;
  body.push(["total", format(totals.promptTokens), format(totals.reusableTokens), format(totals.newTokens), `${(totals.reusableShare * 100).toFixed(1)}% of prompt tokens reusable from the previous call's prefix`]);
  const widths = header.map((cell, column) => Math.max(cell.length, ...body.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ");
  return [
    `Tokens per model call (${tokenizerName}):`,
    line(header),
    line(widths.map((width) => "-".repeat(width))),
    ...body.slice(0, -1).map(line),
    line(widths.map((width) => "-".repeat(width))),
    line(body.at(-1)!),
  ].join("\n");
}

function describeMessages(messages: readonly Message[]): string {
  return messages
    .map((message) => {
      if (message.role === "tool") return `${message.toolName} result${message.isError ? " (error)" : ""} ${formatChars(message.content.length)}`;
      if (message.role === "assistant") {
        const calls = message.content.filter((part) => part.type === "tool_call").map((part) => (part.type === "tool_call" ? part.name : ""));
        return calls.length > 0 ? `assistant → ${calls.join(" + ")}` : "assistant answer";
      }
      return message.role === "user" ? "user task" : message.role;
    })
    .join(", ");
}


const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const format = (value: number) => value.toLocaleString("en-US");
const formatChars = (chars: number) => (chars >= 1000 ? `(${(chars / 1000).toFixed(1)}k chars)` : `(${chars} chars)`);
