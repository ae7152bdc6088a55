import { ConfigError } from "../types/index.js";

/** What a numeric flag takes: checked, with all the command's other flags, before the command does anything. */
export interface NumberRule {
  /** Whole numbers only. */
  integer?: boolean;
  /** The smallest value taken. */
  min?: number;
  /** Values must be above this (a scale or a rate, where 0 means nothing). */
  above?: number;
  max?: number;
  /** Several values separated by commas (`--sizes 10,50,200`). */
  list?: boolean;
  /** A duration like `3s` or `500ms`, given to the command in milliseconds. */
  duration?: boolean;
}

/** A flag declared with its number rule: `parseCommandLine` hands the command the number, never the text. */
export interface NumberFlag {
  type: "string";
  number: NumberRule;
}

/** The common case: a count of at least 1 (`--calls 4`, `--limit 10`). */
export const positiveIntegerFlag = { type: "string", number: { integer: true, min: 1 } } as const satisfies NumberFlag;

export function isNumberFlag(option: unknown): option is NumberFlag {
  return typeof option === "object" && option !== null && "number" in option;
}

/** What the flag takes, in words: the error says it, so a person need not open --help. */
export function describeNumberRule(rule: NumberRule): string {
  if (rule.duration) return `a duration like 3s or 500ms${rule.min !== undefined && rule.min > 0 ? ` (at least ${rule.min} ms)` : ""}`;
  const kind = rule.integer ? "whole number" : "number";
  let described = `a ${kind}`;
  if (rule.integer && rule.min === 1 && rule.max === undefined) described = `a positive ${kind}`;
  else if (rule.above !== undefined) described += ` above ${rule.above}${rule.max === undefined ? "" : ` and at most ${rule.max}`}`;
  else if (rule.min !== undefined) described += rule.max === undefined ? ` of at least ${rule.min}` : ` from ${rule.min} to ${rule.max}`;
  else if (rule.max !== undefined) described += ` of at most ${rule.max}`;
  return rule.list ? `${described}, or several separated by commas` : described;
}

function parseOne(text: string, rule: NumberRule): number | undefined {
  const trimmed = text.trim();
  if (rule.duration) {
    const match = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(trimmed);
    if (!match) return undefined;
    const milliseconds = Math.round(Number(match[1]) * (match[2] === "ms" ? 1 : 1000));
    return rule.min !== undefined && milliseconds < rule.min ? undefined : milliseconds;
  }
  // Number("") is 0 and Number("0x10") is 16: only decimal notation is a number here.
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(trimmed)) return undefined;
  const value = Number(trimmed);
  if (!Number.isFinite(value) || (rule.integer && !Number.isInteger(value))) return undefined;
  if (rule.min !== undefined && value < rule.min) return undefined;
  if (rule.above !== undefined && value <= rule.above) return undefined;
  if (rule.max !== undefined && value > rule.max) return undefined;
  return value;
}

/**
 * A numeric flag's value as a number (or the numbers of a list): a word, a fraction where a whole
 * number is due, or a value out of range is a usage error (exit code 2) that names the flag and what it takes.
 */
export function parseNumberFlag(flag: string, text: string, rule: NumberRule): number | number[] {
  const parts = rule.list ? text.split(",") : [text];
  const values = parts.map((part) => parseOne(part, rule));
  if (values.some((value) => value === undefined) || (rule.list && values.length === 0)) {
    throw new ConfigError("usage_invalid", `--${flag} must be ${describeNumberRule(rule)}, got '${text}'.`);
  }
  return rule.list ? (values as number[]) : values[0]!;
}
