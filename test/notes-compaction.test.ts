import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyEdits, composeContextPolicies } from "../src/context/compose-context-policies.js";
import { createCompression } from "../src/context/compression/index.js";
import { createCompressionPolicy } from "../src/context/compression/create-compression-policy.js";
import { assistantMessage, contextState, toolMessage, userMessage } from "../src/context/compression/test-support/trajectory-builder.js";
import { fetchTool, researchUrls } from "../src/context/compression/test-support/research-task.js";
import { createStatusBar } from "../src/context/status-bar/index.js";
import { createAgent } from "../src/loop/create-agent.js";
import { createTestClock } from "../src/loop/test-support.js";
import { createScriptedProvider } from "../src/providers/scripted/index.js";
import { createNotes } from "../src/tools/notes/index.js";
import { ContextOverflowError, derivedOf, type Message } from "../src/types/index.js";

describe("notes across a real compaction", () => {
  it("keeps the notes outside the context, shows their size in every later tail and points to them after the compaction", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "ctxkit-notes-")), "notes.md");
    const notes = createNotes({ path });
    const window = 20_000;
    let step = 0;
    const plan = [[researchUrls[0]!], [researchUrls[1]!, researchUrls[2]!], [researchUrls[3]!], [researchUrls[4]!, researchUrls[5]!], [researchUrls[6]!]];
    const provider = createScriptedProvider({
      turns: (request) => {
        const tokens = Math.ceil(provider.serialize(request).body.length / 4);
        if (tokens > window) return { error: new ContextOverflowError(`This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens.`) };
        const current = step++;
        if (current === 0) return { toolCalls: [{ name: "notes_write", arguments: { text: "Decision: cite LinkedIn only as a last resort. NOTE-7." } }] };
        const urls = plan[current - 1];
        if (urls === undefined) return "Done.";
        return { text: `Fetching ${urls.length} page(s).`, toolCalls: urls.map((url) => ({ name: "fetch", arguments: { url } })) };
      },
    });
    const compression = createCompression({ contextWindow: window });
    const agent = createAgent({ provider, system: "You research OpenAI's co-founders.", tools: [fetchTool], context: [compression, createStatusBar(), notes], prefixGuard: { strict: true }, runtime: { clock: createTestClock() } });
    const result = await agent.run("Track where OpenAI's co-founders work now.").result();
    expect(result.stopReason).toBe("final_answer");
    expect(compression.stats().compactions).toBeGreaterThan(0);

    expect(await readFile(path, "utf8")).toContain("NOTE-7");
    for (const request of provider.requests.slice(1)) expect(request.tail?.content).toContain("characters in the session's notes file");
    const last = provider.requests.at(-1)!;
    const pointerIndex = last.messages.findIndex((message) => derivedOf(message, "checkpoint")?.policy === "notes");
    expect(pointerIndex).toBeGreaterThan(0);
    expect(last.messages[pointerIndex]!.content).toContain("read them with notes_read");
    // The pointer follows the compaction's replacement.
    expect(last.messages.slice(0, pointerIndex).some((message) => message.meta.derived !== undefined && message.meta.origin === "harness")).toBe(true);
  });

  it("puts the pointer right after a full compaction's summary", async () => {
    const notes = createNotes({ path: join(await mkdtemp(join(tmpdir(), "ctxkit-notes-")), "notes.md") });
    await notes.tools![1]!.execute({ text: "Constraint: the public API stays as it is." }, { signal: new AbortController().signal, toolCallId: "n" });
    const policy = composeContextPolicies(createCompressionPolicy("ctxkit", { contextWindow: 8000, keepRecentTokens: 500 }), notes);
    // The layered policy's own full-compaction scenario: 400 small turns, nothing lighter is enough
    // (not even their archive condensed to one line a turn).
    const messages: Message[] = [userMessage("u0", "Fix the payment callback bug. You must not change the public API.")];
    for (let turn = 1; turn <= 400; turn += 1) {
      messages.push(assistantMessage(`a${turn}`, `I decided to patch src/payment/callbacks.py line ${turn * 10} because handle_callback drops retries.`, [{ id: `c${turn}`, name: "bash", arguments: { command: `pytest tests/test_${turn}.py` } }]));
      messages.push(toolMessage(`t${turn}`, `c${turn}`, "bash", `${turn} passed in 0.${turn}s`));
    }
    const after = applyEdits(messages, (await policy.prepareContext!(contextState(messages)))!);
    const summaryIndex = after.findIndex((message) => derivedOf(message, "summary") !== undefined);
    expect(summaryIndex).toBe(1);
    const pointer = after[summaryIndex + 1]!;
    expect(derivedOf(pointer, "checkpoint")).toMatchObject({ policy: "notes", data: { characters: 43 } });
    expect(pointer.content).toContain("not in the summary: read them with notes_read");
  });
});
