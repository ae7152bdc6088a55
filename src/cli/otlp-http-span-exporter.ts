import { request as httpRequest, type ClientRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace";

type ExportResult = Parameters<Parameters<SpanExporter["export"]>[1]>[0];

export interface OtlpHttpSpanExporterOptions {
  url: string;
  headers: Record<string, string>;
  protocol: "http/protobuf" | "http/json";
  /** Per export request (OTEL_EXPORTER_OTLP_TIMEOUT). */
  timeoutMs: number;
  /** The OTLP request encoder of `@opentelemetry/otlp-transformer` (protobuf or JSON). */
  serialize: (spans: ReadableSpan[]) => Uint8Array | undefined;
}

export interface OtlpHttpSpanExporter extends SpanExporter {
  /** Requests still in flight (a slow or silent collector). */
  inFlight(): number;
  /** Cuts every request in flight: its spans count as dropped. */
  abortAll(): void;
}

/**
 * An OTLP/HTTP span exporter that can be cut off. The SDK's exporters keep an unanswered request
 * (and their retry timers) alive for their whole timeout, which holds the process open after the
 * run has ended. Here a request's socket never keeps the process alive (unref), nothing is retried
 * (a dead collector costs one attempt per batch), and `abortAll` ends what is still in flight once
 * the shutdown's bound has passed. The encoding is the OpenTelemetry packages' own.
 */
export function createOtlpHttpSpanExporter(options: OtlpHttpSpanExporterOptions): OtlpHttpSpanExporter {
  const url = new URL(options.url);
  const requests = new Set<ClientRequest>();
  const contentType = options.protocol === "http/json" ? "application/json" : "application/x-protobuf";
  let stopped = false;
  const failed = (error: Error): ExportResult => ({ code: 1, error });

  return {
    export(spans, done) {
      if (stopped) return done(failed(new Error("the exporter is shut down")));
      let body: Uint8Array | undefined;
      try {
        body = options.serialize(spans);
      } catch (error) {
        return done(failed(error instanceof Error ? error : new Error(String(error))));
      }
      if (body === undefined) return done(failed(new Error("the spans could not be encoded")));
      let settled = false;
      const finish = (result: ExportResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        requests.delete(request);
        done(result);
      };
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      const headers = { ...options.headers, "Content-Type": contentType, "Content-Length": body.byteLength };
      let request: ClientRequest;
      try {
        request = send(url, { method: "POST", headers, agent: false }, (response) => {
          // The head of the answer is kept: a refusal's body says why (Langfuse: "Invalid credentials").
          const head: Buffer[] = [];
          let headBytes = 0;
          response.on("data", (chunk: Buffer) => {
            if (headBytes >= 512) return;
            head.push(chunk.subarray(0, 512 - headBytes));
            headBytes += chunk.length;
          });
          response.on("end", () => {
            const status = response.statusCode ?? 0;
            const said = Buffer.concat(head).toString("utf8").replace(/\s+/g, " ").trim().slice(0, 200);
            finish(status >= 200 && status < 300 ? { code: 0 } : failed(new Error(`the OTLP endpoint answered HTTP ${status}${said === "" ? "" : `: ${said}`}`)));
          });
          response.on("error", (error) => finish(failed(error)));
        });
      } catch (error) {
        // A header Node refuses throws here. Thrown out of export, it left the batch processor
        // waiting for a callback that never came, its 10 s export timer holding the process open.
        settled = true;
        return done(failed(error instanceof Error ? error : new Error(String(error))));
      }
      const timer = setTimeout(() => request.destroy(new Error(`no answer from the OTLP endpoint within ${options.timeoutMs} ms`)), options.timeoutMs);
      timer.unref();
      request.on("socket", (socket) => socket.unref());
      request.on("error", (error) => finish(failed(error)));
      requests.add(request);
      request.end(body);
    },
    async shutdown() {
      stopped = true;
    },
    async forceFlush() {},
    inFlight: () => requests.size,
    abortAll() {
      for (const request of requests) request.destroy(new Error("the run ended before the OTLP endpoint answered"));
      requests.clear();
    },
  };
}
