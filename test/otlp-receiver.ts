import { createServer, type IncomingMessage, type Server } from "node:http";
import { join } from "node:path";
import protobuf from "protobufjs";

/** One exported span, in the shape both OTLP encodings decode to (ids as lowercase hex). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  status: { code: number; message?: string };
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  endpoint: string;
  spans: ReceivedSpan[];
  requests: { contentType: string; headers: IncomingMessage["headers"] }[];
  /** Each OTLP/JSON request body on one line: what the collector's file exporter writes. */
  jsonLines: string[];
  close(): Promise<void>;
}

const protoRoot = join(import.meta.dirname, "fixtures", "otlp-proto");
let requestType: protobuf.Type | undefined;

/** The official ExportTraceServiceRequest message (test/fixtures/otlp-proto, from opentelemetry-proto). */
async function exportRequestType(): Promise<protobuf.Type> {
  if (requestType) return requestType;
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(protoRoot, target);
  await root.load("opentelemetry/proto/collector/trace/v1/trace_service.proto", { keepCase: false });
  requestType = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");
  return requestType;
}

/**
 * A loopback OTLP/HTTP trace receiver (`POST /v1/traces`), as a collector is: it decodes
 * `application/x-protobuf` bodies with the official .proto definitions and `application/json` bodies
 * as the OTLP JSON encoding (hex ids, integer enums), and answers 200 with an empty response.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const type = await exportRequestType();
  const spans: ReceivedSpan[] = [];
  const requests: OtlpReceiver["requests"] = [];
  const jsonLines: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const contentType = String(request.headers["content-type"] ?? "");
      requests.push({ contentType, headers: request.headers });
      try {
        const decoded = contentType.includes("json")
          ? (JSON.parse(body.toString("utf8")) as OtlpRequest)
          : (type.toObject(type.decode(body), { longs: String, bytes: String, defaults: false }) as OtlpRequest);
        spans.push(...flatten(decoded, contentType.includes("json") ? "hex" : "base64"));
        if (contentType.includes("json")) jsonLines.push(JSON.stringify(decoded));
        response.writeHead(200, { "content-type": contentType.includes("json") ? "application/json" : "application/x-protobuf" });
        response.end(contentType.includes("json") ? "{}" : Buffer.alloc(0));
      } catch (error) {
        response.writeHead(400, { "content-type": "text/plain" });
        response.end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    spans,
    requests,
    jsonLines,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface OtlpValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpKeyValue {
  key: string;
  value?: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  status?: { code?: number; message?: string };
  attributes?: OtlpKeyValue[];
}
interface OtlpRequest {
  resourceSpans?: { resource?: { attributes?: OtlpKeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

function flatten(request: OtlpRequest, ids: "hex" | "base64"): ReceivedSpan[] {
  const hex = (id: string | undefined) => (id === undefined || id === "" ? "" : ids === "hex" ? id.toLowerCase() : Buffer.from(id, "base64").toString("hex"));
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: hex(span.traceId),
        spanId: hex(span.spanId),
        parentSpanId: hex(span.parentSpanId),
        name: span.name,
        kind: span.kind ?? 0,
        startNs: BigInt(span.startTimeUnixNano),
        endNs: BigInt(span.endTimeUnixNano),
        status: { code: span.status?.code ?? 0, ...(span.status?.message ? { message: span.status.message } : {}) },
        attributes: attributesOf(span.attributes),
        resource,
      })),
    );
  });
}

function attributesOf(list: OtlpKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, valueOf(entry.value)]));
}

function valueOf(value: OtlpValue | undefined): unknown {
  if (value === undefined) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}
