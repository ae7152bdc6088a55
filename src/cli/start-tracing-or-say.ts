import { escapeForTerminal } from "../context/escape-for-terminal.js";
import { estimateCost, findModelPricing } from "../tokens/pricing.js";
import { isCtxkitError, type Usage } from "../types/index.js";
import type { CliIo } from "./cli-io.js";
import { otelTracingRequested } from "./otel-tracing-requested.js";
import type { OtelTracing } from "./start-otel-tracing.js";

/** A call's cost from the pricing catalog (`ctxkit.cost.usd`), when the model is in it. */
function costOfCall(usage: Usage, model: string): number | undefined {
  const pricing = findModelPricing(model);
  return pricing ? estimateCost(usage, pricing) : undefined;
}

/**
 * Tracing, when the standard OTEL_* variables ask for it (`ctxkit run` and `ctxkit chat`). The SDK is
 * loaded only then. Without the SDK packages, or with a setting ctxkit cannot export with (grpc), the
 * command goes on untraced and says why in one line.
 */
export async function startTracingOrSay(io: CliIo, command: string): Promise<OtelTracing | undefined> {
  if (!otelTracingRequested(io.env)) return undefined;
  try {
    return await (await import("./start-otel-tracing.js")).startOtelTracing(io.env, { costOf: costOfCall });
  } catch (error) {
    if (!isCtxkitError(error) || (error.code !== "dependency_missing" && error.code !== "option_invalid")) throw error;
    io.stderr.write(`ctxkit ${command}: traces are not exported: ${error.message}\n`);
    return undefined;
  }
}

/** Ends tracing within its bound and says what could not be sent. */
export async function stopTracingAndSay(otel: OtelTracing | undefined, io: CliIo, command: string): Promise<void> {
  const traced = await otel?.shutdown();
  if (!traced || traced.dropped === 0) return;
  // The collector's answer says what to fix: a 401 is the credentials, a refused connection the endpoint.
  const why = traced.lastFailure === undefined ? "" : `; the last export failed: ${escapeForTerminal(traced.lastFailure)}${/HTTP 40[13]\b/.test(traced.lastFailure) ? " (check the credentials in OTEL_EXPORTER_OTLP_HEADERS)" : ""}`;
  io.stderr.write(`ctxkit ${command}: traces: ${traced.dropped} span(s) could not be sent to the OTLP endpoint and were dropped (${traced.exported} sent)${why}.\n`);
}
