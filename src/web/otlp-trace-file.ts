import { open, readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import { CtxkitError } from "../types/index.js";

/** One span as the viewer shows it: ids, name, timing relative to the file's first span, attributes. */
export interface TraceSpanView {
  traceId: string;
  spanId: string;
  /** "" for a root span (or one whose parent is not in the file). */
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer (0 unspecified). */
  kind: number;
  /** Milliseconds from the earliest span start in the file. */
  startMs: number;
  durationMs: number;
  /** OTLP status: 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  service?: string;
  attributes: Record<string, TraceAttributeValue>;
  /** The session call this `chat` span made, when that session is shown too. */
  call?: { run: number; call: number };
}

export type TraceAttributeValue = string | number | boolean | TraceAttributeValue[] | { [key: string]: TraceAttributeValue } | null;

export interface TraceFileView {
  file: string;
  spans: TraceSpanView[];
  /** What was skipped: a line that is not OTLP JSON, a span without ids… (at most 20, then a count). */
  problems: string[];
}

/** Limits for a file from anywhere: whole prompts may sit in attributes, but not gigabytes of them. */
export const TRACE_FILE_LIMITS = { maxBytes: 64 * 1024 * 1024, maxSpans: 100_000, maxAttributes: 256, maxStringChars: 64 * 1024, maxDepth: 8 } as const;

const hexId = (length: number) => new RegExp(`^[0-9a-f]{${length}}$`);
const traceIdPattern = hexId(32);
const spanIdPattern = hexId(16);

/** Whether a file looks like OTLP JSON traces (its first 64 KB name `resourceSpans`), read without loading it. */
export async function isOtlpTraceFile(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const head = buffer.subarray(0, bytesRead).toString("utf8").trimStart();
    return head.startsWith("{") && /"resource_?[sS]pans"\s*:/.test(head);
  } finally {
    await handle.close();
  }
}

/**
 * Reads an OTLP JSON trace file: the file exporter's JSON lines (one `ExportTraceServiceRequest`
 * per line) or one export request as a whole document. The file is untrusted: its size, span
 * count, attribute count, string lengths and nesting are bounded, every field is checked, and a
 * bad line or span is skipped and named in `problems` rather than failing the file.
 */
export async function readOtlpTraceFile(path: string, limits: Partial<typeof TRACE_FILE_LIMITS> = {}): Promise<TraceFileView> {
  const bounds = { ...TRACE_FILE_LIMITS, ...limits };
  const size = (await stat(path)).size;
  if (size > bounds.maxBytes) {
    throw new CtxkitError("option_invalid", `${basename(path)} is ${Math.round(size / 1024 / 1024)} MB; trace files over ${Math.round(bounds.maxBytes / 1024 / 1024)} MB are not read (split it, or filter it with the collector).`);
  }
  return parseOtlpTraceText(await readFile(path, "utf8"), path, bounds);
}

export function parseOtlpTraceText(text: string, file: string, limits: Partial<typeof TRACE_FILE_LIMITS> = {}): TraceFileView {
  const bounds = { ...TRACE_FILE_LIMITS, ...limits };
  const problems: string[] = [];
  let problemCount = 0;
  const problem = (reason: string) => {
    problemCount += 1;
    if (problems.length < 20) problems.push(reason);
  };
  const documents: Array<{ value: unknown; line?: number }> = [];
  const whole = tryParse(text);
  if (whole.ok) documents.push({ value: whole.value });
  else {
    // JSON lines: the collector's file exporter writes one export request per line.
    for (const [index, line] of text.split("\n").entries()) {
      if (line.trim() === "") continue;
      const parsed = tryParse(line);
      if (parsed.ok) documents.push({ value: parsed.value, line: index + 1 });
      else problem(`line ${index + 1}: not JSON (${parsed.error})`);
    }
  }
  const raw: Array<Omit<TraceSpanView, "startMs" | "durationMs"> & { start: bigint; end: bigint }> = [];
  for (const { value, line } of documents) {
    const where = line === undefined ? "" : `line ${line}: `;
    const resourceSpans = field(value, "resourceSpans", "resource_spans");
    if (!Array.isArray(resourceSpans)) {
      problem(`${where}no resourceSpans array: not an OTLP JSON trace export`);
      continue;
    }
    for (const resourceSpan of resourceSpans) {
      const resource = field(resourceSpan, "resource");
      const service = attributesOf(field(resource, "attributes"), bounds)["service.name"];
      const scopeSpans = field(resourceSpan, "scopeSpans", "scope_spans", "instrumentationLibrarySpans");
      if (!Array.isArray(scopeSpans)) {
        problem(`${where}a resourceSpans entry without scopeSpans`);
        continue;
      }
      for (const scopeSpan of scopeSpans) {
        const spans = field(scopeSpan, "spans");
        if (!Array.isArray(spans)) continue;
        for (const span of spans) {
          if (raw.length >= bounds.maxSpans) {
            problem(`more than ${bounds.maxSpans} spans: the rest are not shown`);
            break;
          }
          const parsed = parseSpan(span, bounds);
          if (typeof parsed === "string") problem(`${where}${parsed}`);
          else raw.push({ ...parsed, ...(typeof service === "string" ? { service: service.slice(0, 200) } : {}) });
        }
      }
    }
  }
  if (documents.length === 0 && problems.length === 0) problem("the file is empty");
  if (problemCount > problems.length) problems.push(`… and ${problemCount - problems.length} more`);
  const origin = raw.reduce<bigint | undefined>((earliest, span) => (earliest === undefined || span.start < earliest ? span.start : earliest), undefined) ?? 0n;
  const spans = raw.map(({ start, end, ...span }) => ({ ...span, startMs: Number(start - origin) / 1e6, durationMs: end >= start ? Number(end - start) / 1e6 : 0 }));
  spans.sort((left, right) => left.startMs - right.startMs);
  return { file, spans, problems };
}

function parseSpan(span: unknown, bounds: typeof TRACE_FILE_LIMITS): (Omit<TraceSpanView, "startMs" | "durationMs"> & { start: bigint; end: bigint }) | string {
  if (!isRecord(span)) return "a span that is not an object";
  const traceId = normalizeId(field(span, "traceId", "trace_id"));
  const spanId = normalizeId(field(span, "spanId", "span_id"));
  if (traceId === undefined || !traceIdPattern.test(traceId)) return "a span without a valid traceId (32 hex digits)";
  if (spanId === undefined || !spanIdPattern.test(spanId)) return "a span without a valid spanId (16 hex digits)";
  const parentRaw = normalizeId(field(span, "parentSpanId", "parent_span_id")) ?? "";
  const parentSpanId = spanIdPattern.test(parentRaw) && !/^0+$/.test(parentRaw) ? parentRaw : "";
  const name = field(span, "name");
  if (typeof name !== "string") return `span ${spanId} has no name`;
  const start = nanos(field(span, "startTimeUnixNano", "start_time_unix_nano"));
  const end = nanos(field(span, "endTimeUnixNano", "end_time_unix_nano"));
  if (start === undefined || end === undefined) return `span ${spanId} has no valid start or end time`;
  const status = field(span, "status");
  const code = statusCode(field(status, "code"));
  const message = field(status, "message");
  const kind = field(span, "kind");
  return {
    traceId,
    spanId,
    parentSpanId,
    name: name.slice(0, 500),
    kind: typeof kind === "number" && Number.isInteger(kind) && kind >= 0 && kind <= 5 ? kind : 0,
    start,
    end,
    status: { code, ...(typeof message === "string" && message !== "" ? { message: message.slice(0, 2000) } : {}) },
    attributes: attributesOf(field(span, "attributes"), bounds),
  };
}

/** OTLP JSON attributes (`[{key, value: AnyValue}]`) as plain values; bounded in count, length and depth. */
function attributesOf(list: unknown, bounds: typeof TRACE_FILE_LIMITS): Record<string, TraceAttributeValue> {
  const attributes: Record<string, TraceAttributeValue> = {};
  if (!Array.isArray(list)) return attributes;
  for (const entry of list.slice(0, bounds.maxAttributes)) {
    const key = field(entry, "key");
    if (typeof key !== "string" || key === "" || key.length > 256 || key === "__proto__") continue;
    attributes[key] = anyValue(field(entry, "value"), bounds, 0);
  }
  return attributes;
}

function anyValue(value: unknown, bounds: typeof TRACE_FILE_LIMITS, depth: number): TraceAttributeValue {
  if (!isRecord(value) || depth > bounds.maxDepth) return null;
  const text = (input: string) => (input.length > bounds.maxStringChars ? `${input.slice(0, bounds.maxStringChars)}… (${input.length} characters)` : input);
  if (typeof value.stringValue === "string") return text(value.stringValue);
  if (typeof value.boolValue === "boolean") return value.boolValue;
  if (value.intValue !== undefined) {
    const number = Number(value.intValue);
    return Number.isFinite(number) ? number : null;
  }
  if (value.doubleValue !== undefined) {
    const number = Number(value.doubleValue);
    return Number.isFinite(number) ? number : null;
  }
  if (typeof value.bytesValue === "string") return text(value.bytesValue);
  const array = field(value.arrayValue, "values");
  if (Array.isArray(array)) return array.slice(0, bounds.maxAttributes).map((item) => anyValue(item, bounds, depth + 1));
  const pairs = field(value.kvlistValue, "values");
  if (Array.isArray(pairs)) {
    const object: Record<string, TraceAttributeValue> = {};
    for (const pair of pairs.slice(0, bounds.maxAttributes)) {
      const key = field(pair, "key");
      if (typeof key === "string" && key !== "__proto__") object[key.slice(0, 256)] = anyValue(field(pair, "value"), bounds, depth + 1);
    }
    return object;
  }
  return null;
}

/** Hex as OTLP JSON writes ids; base64 (protobuf's default JSON mapping, some exporters) is converted. */
function normalizeId(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 64) return undefined;
  if (/^[0-9a-fA-F]+$/.test(value) && (value.length === 32 || value.length === 16)) return value.toLowerCase();
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(value)) {
    const bytes = Buffer.from(value, "base64");
    if (bytes.length === 16 || bytes.length === 8) return bytes.toString("hex");
  }
  return value === "" ? "" : undefined;
}

function nanos(value: unknown): bigint | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === "string" && /^\d{1,20}$/.test(value)) return BigInt(value);
  return undefined;
}

function statusCode(value: unknown): number {
  if (value === 1 || value === "STATUS_CODE_OK") return 1;
  if (value === 2 || value === "STATUS_CODE_ERROR") return 2;
  return 0;
}

function field(value: unknown, ...names: string[]): unknown {
  if (!isRecord(value)) return undefined;
  for (const name of names) if (Object.hasOwn(value, name)) return value[name];
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: (error as Error).message.slice(0, 120) };
  }
}

/**
 * Links each `chat` span to the session call it made: the n-th chat span (by start) of a
 * conversation (`gen_ai.conversation.id`, the session id) is call n of the run with that id.
 * Derived when both files are shown, so the session format stays as it is.
 */
export function linkTraceToRuns(traces: readonly TraceFileView[], runs: ReadonlyArray<{ id: string; calls: number }>): TraceFileView[] {
  const runByConversation = new Map(runs.map((run, index) => [run.id, { index, calls: run.calls }]));
  const seen = new Map<string, number>();
  return traces.map((trace) => ({
    ...trace,
    spans: trace.spans.map(({ call: _stale, ...span }) => {
      const conversation = span.attributes["gen_ai.conversation.id"];
      if (span.attributes["gen_ai.operation.name"] !== "chat" || typeof conversation !== "string") return span;
      const run = runByConversation.get(conversation);
      const call = seen.get(conversation) ?? 0;
      seen.set(conversation, call + 1);
      return run !== undefined && call < run.calls ? { ...span, call: { run: run.index, call } } : span;
    }),
  }));
}
