import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../../src/testing.js";
import { cliEnvironment } from "../run-cli.js";
import { requireEndToEnd } from "./end-to-end-only.js";

/** The traces' shutdown bound (start-otel-tracing.ts), plus closing the session and the process's own exit on a loaded machine. */
const exitBoundMs = 1000 + 1500;

interface TimedRun {
  code: number | null;
  stderr: string;
  /** From the run_end line on stdout to the exit of the process: what tracing adds at the end. */
  afterRunEndMs: number;
}

/** The built binary, timed from its `run_end` event to its exit. */
function timedRun(model: OpenAIModelServer, env: Record<string, string>): Promise<TimedRun> {
  requireEndToEnd("timedRun");
  return mkdtemp(join(tmpdir(), "ctxkit-dead-collector-")).then(
    (cwd) =>
      new Promise((resolvePromise, reject) => {
        const child = spawn(process.execPath, [resolve("bin/ctxkit.js"), "run", "--base-url", model.baseURL, "--model", "gpt-4.1", "--json", "Say done."], { cwd, env: cliEnvironment(cwd, env), stdio: ["ignore", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        let runEndAt: number | undefined;
        const timer = setTimeout(() => {
          child.kill("SIGKILL");
          reject(new Error(`ctxkit run did not exit.\nstdout:\n${stdout}\nstderr:\n${stderr}`));
        }, 60_000);
        child.stdout.on("data", (data: Buffer) => {
          stdout += data.toString();
          if (runEndAt === undefined && stdout.includes('"type":"run_end"')) runEndAt = performance.now();
        });
        child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
        child.on("exit", (code) => {
          clearTimeout(timer);
          if (runEndAt === undefined) return reject(new Error(`no run_end event.\nstdout:\n${stdout}\nstderr:\n${stderr}`));
          resolvePromise({ code, stderr, afterRunEndMs: performance.now() - runEndAt });
        });
      }),
  );
}

describe("a dead OTLP collector never holds up the exit of ctxkit run", () => {
  let model: OpenAIModelServer;
  let hanging: Server;
  let refusedPort: number;
  beforeAll(async () => {
    model = await startOpenAIModelServer(() => "Done.");
    // A collector that accepts the connection and never answers.
    hanging = createServer(() => undefined);
    await new Promise<void>((resolvePromise) => hanging.listen(0, "127.0.0.1", resolvePromise));
    // A port nobody listens on: the connection is refused.
    const closed = createServer();
    await new Promise<void>((resolvePromise) => closed.listen(0, "127.0.0.1", resolvePromise));
    refusedPort = (closed.address() as { port: number }).port;
    await new Promise((resolvePromise) => closed.close(resolvePromise));
  });
  afterAll(async () => {
    await model.close();
    hanging.closeAllConnections();
    await new Promise((resolvePromise) => hanging.close(resolvePromise));
  });

  it("a collector that never answers: the process exits within the shutdown bound, the spans counted as dropped", async () => {
    const run = await timedRun(model, { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(hanging.address() as { port: number }).port}` });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/traces: 2 span\(s\) could not be sent to the OTLP endpoint and were dropped \(0 sent\)/);
    expect(run.afterRunEndMs).toBeLessThan(exitBoundMs);
  }, 90_000);

  it("a refused port: no retries, the process exits within the bound", async () => {
    const run = await timedRun(model, { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${refusedPort}` });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/traces: 2 span\(s\) could not be sent/);
    expect(run.afterRunEndMs).toBeLessThan(exitBoundMs);
  }, 90_000);

  it("OTEL_EXPORTER_OTLP_PROTOCOL=grpc: the run goes on untraced and says which protocols work", async () => {
    const run = await timedRun(model, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("traces are not exported: OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: ctxkit exports traces over OTLP/HTTP only, as http/protobuf (the default) or http/json");
    expect(run.stderr).not.toContain("npm install");
  }, 90_000);
});
