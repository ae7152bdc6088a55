/**
 * Whether the standard OTLP variables ask for traces (`OTEL_TRACES_EXPORTER=none` or
 * `OTEL_SDK_DISABLED=true` turn them off). Checked without loading the SDK, so a plain run stays fast.
 */
export function otelTracingRequested(env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.OTEL_SDK_DISABLED === "true" || env.OTEL_TRACES_EXPORTER === "none") return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT);
}
