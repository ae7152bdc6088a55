/**
 * Whether the standard OTLP variables ask for traces: an endpoint, or `OTEL_TRACES_EXPORTER=otlp`
 * (the default endpoint, localhost:4318, then). `OTEL_TRACES_EXPORTER=none` or `OTEL_SDK_DISABLED=true`
 * turn them off. Checked without loading the SDK, so a plain run stays fast.
 */
export function otelTracingRequested(env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "").split(",").map((name) => name.trim());
  if (exporters.includes("none")) return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT || exporters.includes("otlp"));
}
