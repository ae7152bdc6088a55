import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AssistantMessage, ToolMessage, Usage, UserMessage } from "../../types/index.js";
import type { SessionPrefix } from "../session-records.js";
import { afterEach, beforeEach } from "vitest";
import { createSessionStore, type SessionStore } from "../session-store.js";
import { startSession } from "../start-session.js";

export async function createTempDirectory(): Promise<{ directory: string; remove: () => Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), "ctxkit-session-"));
  return { directory, remove: () => rm(directory, { recursive: true, force: true }) };
}

export const samplePrefix: SessionPrefix = {
  system: { staticText: "You are a careful coding agent.", sessionText: "User: Mei. Workspace: /tmp/project." },
  tools: [
    {
      name: "read_file",
      description: "Read a file from the workspace.",
      parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  ],
  provider: "anthropic",
  model: "claude-sonnet-4-5",
};

export function userMessage(id: string, content: string, origin: "user" | "harness" = "user"): UserMessage {
  return { role: "user", content, meta: { id, origin, createdAt: "2026-11-30T04:15:02.000Z" } };
}

/** An assistant turn with the parts that must survive byte-exact: a signature and raw argument text. */
export function assistantWithToolCall(id: string, callId: string, argumentsText: string): AssistantMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsText);
  } catch {
    parsed = undefined;
  }
  return {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "Need the file — 先读文件 🌡️", signature: "EqoBCkgIBxAB+/=Zk1c2ln\u2028" },
      { type: "thinking", thinking: "", redactedData: "c2VjcmV0LXJlYXNvbmluZw==" },
      { type: "text", text: "Reading it." },
      { type: "tool_call", id: callId, name: "read_file", argumentsText, arguments: parsed },
    ],
    meta: { id, origin: "model", createdAt: "2026-11-30T04:15:05.902Z" },
    stopReason: "tool_calls",
    rawStopReason: "tool_use",
  };
}

export function toolResult(id: string, callId: string, content: string): ToolMessage {
  return {
    role: "tool",
    toolCallId: callId,
    toolName: "read_file",
    content,
    isError: false,
    meta: { id, origin: "tool", createdAt: "2026-11-30T04:15:05.950Z" },
  };
}

export function usageOf(inputTokens: number, outputTokens: number): Usage {
  return { inputTokens, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens, reasoningTokens: 0 };
}

/** Resumes (or starts) session `id` as the sample agent: `samplePrefix` on an Anthropic model, repairing when asked. */
export function startSampleSession(store: SessionStore, id: string, repair?: boolean): ReturnType<typeof startSession> {
  return startSession(store, { id, system: samplePrefix.system, tools: samplePrefix.tools, provider: { name: "anthropic", model: "claude-sonnet-4-5" }, ...(repair === undefined ? {} : { repair }) });
}

/**
 * The session store of each test in a file: a fresh temporary folder before each test, removed
 * after it. The returned store stands for the current test's (it forwards every call to it), so a
 * file declares it once: `const store = useTempSessionStore();`.
 */
export function useTempSessionStore(): SessionStore {
  let temp: Awaited<ReturnType<typeof createTempDirectory>> | undefined;
  let current: SessionStore | undefined;
  beforeEach(async () => {
    temp = await createTempDirectory();
    current = createSessionStore({ directory: temp.directory });
  });
  afterEach(() => temp?.remove());
  return new Proxy({} as SessionStore, {
    get(_target, key) {
      if (current === undefined) throw new Error("useTempSessionStore: the store exists only inside a test (beforeEach makes it).");
      const value: unknown = Reflect.get(current, key);
      return typeof value === "function" ? value.bind(current) : value;
    },
  });
}
