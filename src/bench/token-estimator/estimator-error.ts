import type { TextCategory } from "./text-category.js";

/** Tokens for one text. */
export type CountTokens = (text: string) => number;

/** The exact tokenizers, and the estimator under its three profiles. */
export interface ErrorCounters {
  exact: { qwen3: CountTokens; o200k: CountTokens };
  estimate: { balanced: CountTokens; qwen3: CountTokens; o200k: CountTokens };
}

/** Aggregate relative errors against one exact tokenizer. */
export interface RelativeErrors {
  charsOver4: number;
  balanced: number;
  /** The profile fitted to this tokenizer (`qwen3` against Qwen3, `o200k` against o200k). */
  matching: number;
}

export interface CategoryError {
  id: string;
  name: string;
  source: string;
  texts: number;
  /** UTF-16 code units, what `text.length` (and so chars/4) counts. */
  characters: number;
  utf8Bytes: number;
  exact: { qwen3: number; o200k: number };
  estimated: { charsOver4: number; balanced: number; qwen3: number; o200k: number };
  error: { qwen3: RelativeErrors; o200k: RelativeErrors };
}

export interface EstimatorErrorResult {
  categories: CategoryError[];
  /** Every category summed: weighted by size, so the largest category dominates it. */
  all: CategoryError;
}

/**
 * The baseline everyone writes. Rounded up per text, as `Math.ceil(text.length / 4)` usually is;
 * counted per text because a request's pieces are counted one by one too.
 */
export function charsOver4(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Counts every text of every category with each counter and reports the aggregate relative error
 * (Σestimate − Σexact) / Σexact per category: the error of a whole prompt, where per-text errors of
 * opposite sign cancel as they do in a real request.
 */
export function measureEstimatorError(categories: readonly TextCategory[], counters: ErrorCounters): EstimatorErrorResult {
  const rows = categories.map((category) => measureCategory(category, counters));
  return { categories: rows, all: sumRows(rows) };
}

function measureCategory(category: TextCategory, counters: ErrorCounters): CategoryError {
  // One counter over all texts, then the next: interleaving them per text made every counter
  // slower (15% for Qwen3, 40% for the estimator here), and the throughput would report that.
  const sum = (count: CountTokens) => category.texts.reduce((total, text) => total + count(text), 0);
  const { id, name, source, texts } = category;
  return withErrors({
    id,
    name,
    source,
    texts: texts.length,
    characters: sum((text) => text.length),
    utf8Bytes: sum((text) => Buffer.byteLength(text, "utf8")),
    exact: { qwen3: sum(counters.exact.qwen3), o200k: sum(counters.exact.o200k) },
    estimated: {
      charsOver4: sum(charsOver4),
      balanced: sum(counters.estimate.balanced),
      qwen3: sum(counters.estimate.qwen3),
      o200k: sum(counters.estimate.o200k),
    },
  });
}

function sumRows(rows: readonly CategoryError[]): CategoryError {
  const total = (pick: (row: CategoryError) => number) => rows.reduce((sum, row) => sum + pick(row), 0);
  return withErrors({
    id: "all",
    name: "all",
    source: rows.map((row) => row.name).join(" + "),
    texts: total((row) => row.texts),
    characters: total((row) => row.characters),
    utf8Bytes: total((row) => row.utf8Bytes),
    exact: { qwen3: total((row) => row.exact.qwen3), o200k: total((row) => row.exact.o200k) },
    estimated: {
      charsOver4: total((row) => row.estimated.charsOver4),
      balanced: total((row) => row.estimated.balanced),
      qwen3: total((row) => row.estimated.qwen3),
      o200k: total((row) => row.estimated.o200k),
    },
  });
}

function withErrors(row: Omit<CategoryError, "error">): CategoryError {
  const { exact, estimated } = row;
  return {
    ...row,
    error: {
      qwen3: {
        charsOver4: relativeError(estimated.charsOver4, exact.qwen3),
        balanced: relativeError(estimated.balanced, exact.qwen3),
        matching: relativeError(estimated.qwen3, exact.qwen3),
      },
      o200k: {
        charsOver4: relativeError(estimated.charsOver4, exact.o200k),
        balanced: relativeError(estimated.balanced, exact.o200k),
        matching: relativeError(estimated.o200k, exact.o200k),
      },
    },
  };
}

/** (estimate − exact) / exact; 0 for an empty category rather than NaN, which JSON cannot hold. */
export function relativeError(estimate: number, exact: number): number {
  return exact === 0 ? 0 : (estimate - exact) / exact;
}
