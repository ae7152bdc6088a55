import { validateHeaderName, validateHeaderValue } from "node:http";
import type { AgentTracing } from "../tracing/index.js";
import { ConfigError, type Usage } from "../types/index.js";
import type { OtlpHttpSpanExporter } from "./otlp-http-span-exporter.js";

export const otelSdkInstallCommand =
  "npm install @opentelemetry/sdk-trace@3.1.1 @opentelemetry/resources@3.1.1 @opentelemetry/otlp-transformer@0.301.1";

export interface OtelTracing {
  tracing: AgentTracing;
  /**
   * Sends what is queued and stops, in at most `timeoutMs` (default 1 s): requests still in flight
   * then are cut, so a slow or dead collector never holds the process open; what they carried, and
   * whatever the full queue refused, is counted as dropped.
   */
  shutdown(timeoutMs?: number): Promise<{ exported: number; dropped: number; lastFailure?: string }>;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The protocols ctxkit exports with (the OTLP/HTTP ones; a collector takes both on port 4318). */
const supportedProtocols = ["http/protobuf", "http/json"] as const;

/**
 * Starts an OpenTelemetry tracer provider with the OTLP/HTTP exporter the standard variables
 * describe: OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _PROTOCOL (http/protobuf or http/json), _HEADERS,
 * _TIMEOUT; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES; OTEL_TRACES_SAMPLER(_ARG); OTEL_BSP_*.
 * The SDK is imported only here, when tracing is asked for: a run without OTEL_* variables never
 * loads it. Spans go through a bounded batch queue, so a slow or dead collector never holds up the run.
 */
export async function startOtelTracing(env: Env, options: { costOf?: (usage: Usage, model: string) => number | undefined } = {}): Promise<OtelTracing> {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || "http/protobuf").trim();
  if (!(supportedProtocols as readonly string[]).includes(protocol)) {
    // Checked before the SDK is loaded: it is the protocol that is wrong, not the install.
    throw new ConfigError(
      "option_invalid",
      `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported: ctxkit exports traces over OTLP/HTTP only, as http/protobuf (the default) or http/json. Collectors take both on port 4318 (gRPC is 4317); set OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf and point the endpoint at the HTTP port.`,
    );
  }
  let sdk: [typeof import("@opentelemetry/sdk-trace"), typeof import("@opentelemetry/resources"), typeof import("@opentelemetry/otlp-transformer"), typeof import("./otlp-http-span-exporter.js"), typeof import("../tracing/index.js")];
  try {
    sdk = await Promise.all([import("@opentelemetry/sdk-trace"), import("@opentelemetry/resources"), import("@opentelemetry/otlp-transformer"), import("./otlp-http-span-exporter.js"), import("../tracing/index.js")]);
  } catch (error) {
    // The SDK packages are optional peers: a plain install of ctxkit leaves them out.
    throw new ConfigError("dependency_missing", `Exporting traces needs the OpenTelemetry SDK packages, which could not be loaded (${error instanceof Error ? error.message : String(error)}). Install them next to ctxkit with: ${otelSdkInstallCommand}`, { cause: error });
  }
  const [trace, { resourceFromAttributes }, { JsonTraceSerializer, ProtobufTraceSerializer }, { createOtlpHttpSpanExporter }, { createAgentTracing }] = sdk;
  const serializer = protocol === "http/json" ? JsonTraceSerializer : ProtobufTraceSerializer;
  const exporter: OtlpHttpSpanExporter = createOtlpHttpSpanExporter({
    url: tracesEndpoint(env),
    headers: checkedHeaders(env),
    protocol: protocol as (typeof supportedProtocols)[number],
    timeoutMs: positive(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? env.OTEL_EXPORTER_OTLP_TIMEOUT, 10_000),
    serialize: (spans) => serializer.serializeRequest(spans),
  });
  let ended = 0;
  let exported = 0;
  // Why the last export failed (HTTP 401, connection refused), for the line that counts the dropped spans.
  let lastFailure: string | undefined;
  // Counting what was delivered: every ended span not delivered by shutdown was dropped (a full queue, a failed export).
  const counting: typeof exporter = {
    ...exporter,
    export: (spans, done) =>
      exporter.export(spans, (result) => {
        if (result.code === 0) exported += spans.length;
        else lastFailure = result.error?.message ?? "the export failed";
        done(result);
      }),
  };
  const maxQueueSize = positive(env.OTEL_BSP_MAX_QUEUE_SIZE, 2048);
  const batch = new trace.BatchSpanProcessor({
    exporter: counting,
    maxQueueSize,
    maxExportBatchSize: Math.min(maxQueueSize, positive(env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, 512)),
    scheduledDelayMillis: positive(env.OTEL_BSP_SCHEDULE_DELAY, 500),
    exportTimeoutMillis: positive(env.OTEL_BSP_EXPORT_TIMEOUT, 10_000),
  });
  const provider = new trace.TracerProvider({
    resource: resourceFromAttributes({ ...parseOtlpHeaders(env.OTEL_RESOURCE_ATTRIBUTES), "service.name": env.OTEL_SERVICE_NAME || parseOtlpHeaders(env.OTEL_RESOURCE_ATTRIBUTES)["service.name"] || "ctxkit" }),
    sampler: samplerFromEnv(trace, env),
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
    async shutdown(timeoutMs = 1000) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([provider.shutdown().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
      // What is still in flight after the bound is given up: nothing keeps the process open for it.
      exporter.abortAll();
      return { exported, dropped: Math.max(0, ended - exported), ...(lastFailure === undefined ? {} : { lastFailure }) };
    },
  };
}

/**
 * The export headers, each one Node can send. One it refuses (a space in a name, a line break
 * decoded from %0A) failed every export with no word of why but "N spans dropped"; it is said here,
 * before the SDK starts, and the run goes on untraced.
 */
function checkedHeaders(env: Env): Record<string, string> {
  const headers = { ...parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS), ...parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) };
  for (const [name, value] of Object.entries(headers)) {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      const variable = env.OTEL_EXPORTER_OTLP_TRACES_HEADERS?.includes(name) ? "OTEL_EXPORTER_OTLP_TRACES_HEADERS" : "OTEL_EXPORTER_OTLP_HEADERS";
      throw new ConfigError(
        "option_invalid",
        `${variable} holds a header HTTP cannot send ('${name.slice(0, 80)}': a name of letters, digits and -, a value without line breaks or control characters); write it as name=value pairs separated by commas, with the value percent-encoded (Authorization=Basic%20…).`,
      );
    }
  }
  return headers;
}

/** The signal-specific endpoint as given; the general one gets the traces path (OTLP exporter spec). */
function tracesEndpoint(env: Env): string {
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || `${(env.OTEL_EXPORTER_OTLP_ENDPOINT || "http://localhost:4318").replace(/\/+$/, "")}/v1/traces`;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error(`${parsed.protocol} is not http or https`);
    return url;
  } catch (error) {
    throw new ConfigError("option_invalid", `The OTLP traces endpoint '${url}' is not an http(s) URL (${(error as Error).message}); set OTEL_EXPORTER_OTLP_ENDPOINT=http://host:4318.`);
  }
}

/** OTEL_TRACES_SAMPLER as the SDK spec names them (unknown names: always_on, as the spec says for an invalid value). */
function samplerFromEnv(trace: typeof import("@opentelemetry/sdk-trace"), env: Env): import("@opentelemetry/sdk-trace").Sampler {
  const ratio = Number(env.OTEL_TRACES_SAMPLER_ARG ?? "1");
  const fraction = Number.isFinite(ratio) && ratio >= 0 && ratio <= 1 ? ratio : 1;
  switch (env.OTEL_TRACES_SAMPLER?.trim()) {
    case "always_off":
      return new trace.AlwaysOffSampler();
    case "traceidratio":
      return new trace.TraceIdRatioBasedSampler(fraction);
    case "parentbased_always_off":
      return new trace.ParentBasedSampler({ root: new trace.AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new trace.ParentBasedSampler({ root: new trace.TraceIdRatioBasedSampler(fraction) });
    case "always_on":
      return new trace.AlwaysOnSampler();
    default:
      return new trace.ParentBasedSampler({ root: new trace.AlwaysOnSampler() });
  }
}

function positive(value: string | undefined, fallback: number): number {
  const number = Number(value);
  return value !== undefined && value.trim() !== "" && Number.isFinite(number) && number > 0 ? Math.floor(number) : fallback;
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
