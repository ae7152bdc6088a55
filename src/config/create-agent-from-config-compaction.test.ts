import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { collectRunEvents } from "../loop/test-support/collect-run-events.js";
import { documentedCompaction } from "../providers/openai-responses/test-support/documented-compaction.js";
import { recordedResponsesAnswer } from "../providers/openai-responses/test-support/recorded-answer.js";
import { startLoopbackServer, type LoopbackServer } from "../testing/loopback-server.js";
import type { Provider } from "../providers/provider.js";
import type { ModelRequest } from "../types/index.js";
import { createAgentFromConfig } from "./create-agent-from-config.js";

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("createAgentFromConfig's server compaction on request", () => {
  it("offers requestServerCompaction with provider openai-responses: /responses/compact runs before the next model call", async () => {
    server = await startLoopbackServer((request) => (request.path === "/responses/compact" ? { headers: { "content-type": "application/json" }, body: documentedCompaction } : recordedResponsesAnswer(300)));
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-config-compact-"));
    const configured = await createAgentFromConfig({ workspace, settings: { provider: "openai-responses", model: "gpt-5.1-codex-max", apiKey: "k", baseURL: server.url, statusBar: "off" } });
    try {
      await collectRunEvents(configured.agent, "Create a simple landing page for a dog petting cafe.");
      expect(server.requests.map((request) => request.path)).toEqual(["/responses"]);
      configured.requestServerCompaction!();
      const events = await collectRunEvents(configured.agent, "Add a menu.");
      expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });
      expect(server.requests.map((request) => request.path)).toEqual(["/responses", "/responses/compact", "/responses"]);
      // Only when asked: the call after is not compacted again.
      await collectRunEvents(configured.agent, "And a footer.");
      expect(server.requests.map((request) => request.path)).toEqual(["/responses", "/responses/compact", "/responses", "/responses"]);
    } finally {
      await configured.close();
    }
  });

  it("sends /responses/compact through observeProvider's wrapper, as the model calls (a durable step, tracing), and offers none when the wrapper drops it", async () => {
    server = await startLoopbackServer((request) => (request.path === "/responses/compact" ? { headers: { "content-type": "application/json" }, body: documentedCompaction } : recordedResponsesAnswer(300)));
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-config-compact-"));
    const seen: string[] = [];
    const forwarding = (given: Provider): Provider => {
      const compact = (given as Provider & { compact: (request: ModelRequest, signal?: AbortSignal) => Promise<unknown> }).compact;
      return {
        ...given,
        stream: (request, signal) => (seen.push("stream"), given.stream(request, signal)),
        compact: (request: ModelRequest, signal?: AbortSignal) => (seen.push("compact"), compact.call(given, request, signal)),
      } as Provider;
    };
    const settings = { provider: "openai-responses" as const, model: "gpt-5.1-codex-max", apiKey: "k", baseURL: server.url, statusBar: "off" as const };
    const configured = await createAgentFromConfig({ workspace, settings, observeProvider: forwarding });
    try {
      await collectRunEvents(configured.agent, "Create a simple landing page for a dog petting cafe.");
      configured.requestServerCompaction!();
      await collectRunEvents(configured.agent, "Add a menu.");
      expect(server.requests.map((request) => request.path)).toEqual(["/responses", "/responses/compact", "/responses"]);
      expect(seen).toEqual(["stream", "compact", "stream"]);
    } finally {
      await configured.close();
    }
    // A wrapper that offers no compaction call: the pass would skip it, so none is offered.
    const dropping = await createAgentFromConfig({ workspace, settings, observeProvider: (given) => ({ specificationVersion: given.specificationVersion, name: given.name, model: given.model, stream: (request, signal) => given.stream(request, signal), serialize: (request) => given.serialize(request) }) });
    try {
      expect(dropping.requestServerCompaction).toBeUndefined();
    } finally {
      await dropping.close();
    }
  });

  it("does not offer it for a provider without a compaction call of its own", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-config-compact-"));
    const configured = await createAgentFromConfig({ workspace, settings: { provider: "openai-compatible", model: "m", apiKey: "k", baseURL: "http://127.0.0.1:9/v1", statusBar: "off" } });
    try {
      expect(configured.requestServerCompaction).toBeUndefined();
    } finally {
      await configured.close();
    }
  });
});
