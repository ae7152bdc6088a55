import type { AgentTracing } from "../tracing/index.js";
import type { Usage } from "../types/index.js";

export interface OtelTracing {
  tracing: AgentTracing;
  /** Sends what is queued and stops, in at most `timeoutMs`: spans not delivered by then are dropped and counted. */
  shutdown(timeoutMs?: number): Promise<{ exported: number; dropped: number }>;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Starts an OpenTelemetry tracer provider with the OTLP/HTTP exporter the standard variables
 * describe (endpoint, protocol http/protobuf or http/json, headers, service name). The SDK is
 * imported only here, when tracing is asked for: a run without OTEL_* variables never loads it.
 * Spans go through a bounded batch queue, so a slow or dead collector never holds up the run.
 */
export async function startOtelTracing(env: Env, options: { costOf?: (usage: Usage, model: string) => number | undefined } = {}): Promise<OtelTracing> {
  const [{ TracerProvider, BatchSpanProcessor }, { resourceFromAttributes }, { createAgentTracing }] = await Promise.all([
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/resources"),
    import("../tracing/index.js"),
  ]);
  const exporter = await createOtlpExporter(env);
  let ended = 0;
  let exported = 0;
  // Counting what was delivered: every ended span not delivered by shutdown was dropped (a full queue, a failed export).
  const counting: typeof exporter = {
    export: (spans, done) => exporter.export(spans, (result) => {
      if (result.code === 0) exported += spans.length;
      done(result);
    }),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
  const batch = new BatchSpanProcessor({ exporter: counting, maxQueueSize: 2048, maxExportBatchSize: 512, scheduledDelayMillis: 500, exportTimeoutMillis: 5000 });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME || "ctxkit" }),
    spanProcessors: [{
      onStart: (span, parent) => batch.onStart(span, parent),
      onEnd: (span) => {
        ended += 1;
        batch.onEnd(span);
      },
      forceFlush: () => batch.forceFlush(),
      shutdown: () => batch.shutdown(),
    }],
  });
  const tracing = createAgentTracing({ tracer: provider.getTracer("ctxkit"), ...(options.costOf ? { costOf: options.costOf } : {}) }, env);
  return {
    tracing,
    async shutdown(timeoutMs = 3000) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        provider.shutdown().catch(() => undefined),
        new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
      ]);
      clearTimeout(timer);
      return { exported, dropped: Math.max(0, ended - exported) };
    },
  };
}

async function createOtlpExporter(env: Env) {
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf";
  // The signal-specific endpoint is used as given; the general one gets the traces path (OTLP exporter spec).
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || `${(env.OTEL_EXPORTER_OTLP_ENDPOINT ?? "").replace(/\/+$/, "")}/v1/traces`;
  const headers = { ...parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS), ...parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) };
  const config = { url, headers, timeoutMillis: 5000 };
  if (protocol === "http/json") {
    const [{ OTLPExporterBase }, { createOtlpHttpExportDelegate, convertLegacyHttpOptions }, { JsonTraceSerializer, TraceExporterMetricsHelper }] = await Promise.all([
      import("@opentelemetry/otlp-exporter-base"),
      import("@opentelemetry/otlp-exporter-base/node-http"),
      import("@opentelemetry/otlp-transformer"),
    ]);
    // The OTLP/HTTP JSON exporter, built as the protobuf one is (same delegate, the JSON serializer).
    const delegate = createOtlpHttpExportDelegate(convertLegacyHttpOptions(config, "TRACES", "v1/traces", { "Content-Type": "application/json" }), JsonTraceSerializer, "otlp_http_json_span_exporter", TraceExporterMetricsHelper, undefined);
    return new OTLPExporterBase(delegate) as unknown as import("@opentelemetry/sdk-trace").SpanExporter;
  }
  if (protocol !== "http/protobuf") {
    throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported by ctxkit; use http/protobuf or http/json.`);
  }
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-proto");
  return new OTLPTraceExporter(config) as unknown as import("@opentelemetry/sdk-trace").SpanExporter;
}

/** `key1=value1,key2=value2`, values percent-encoded (W3C baggage form, as the OTLP exporter spec says). */
export function parseOtlpHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    try {
      headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      continue;
    }
  }
  return headers;
}
