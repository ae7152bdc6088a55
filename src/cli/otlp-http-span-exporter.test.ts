import { describe, expect, it } from "vitest";
import { createOtlpHttpSpanExporter } from "./otlp-http-span-exporter.js";

describe("createOtlpHttpSpanExporter", () => {
  // Node's http.request throws for such a header. Thrown out of export, the batch processor waited
  // for a callback that never came (its 10 s export timer held the process after the run ended).
  it("reports a header Node refuses as a failed export instead of throwing", async () => {
    const exporter = createOtlpHttpSpanExporter({ url: "http://127.0.0.1:9/v1/traces", headers: { "bad header": "1" }, protocol: "http/json", timeoutMs: 1000, serialize: () => new Uint8Array([123, 125]) });
    const result = await new Promise<{ code: number; error?: Error }>((resolve) => exporter.export([], resolve));
    expect(result.code).toBe(1);
    expect(result.error?.message).toMatch(/Header name must be a valid HTTP token/);
    expect(exporter.inFlight()).toBe(0);
  });
});
