import { cp, mkdtemp, mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { importTranscriptFiles } from "./import-transcript-files.js";
import { findOpenHandsConversationFolder, readOpenHandsConversationFolder } from "./read-openhands-conversation-folder.js";

// A real OpenHands V1 conversation as the SDK persisted it (gpt-4o-mini, 3 calls); origin in fixtures/README.md.
const folder = fileURLToPath(new URL("fixtures/openhands-v1-conversation/cd94562403b9487ebdd4018e3f531dfd", import.meta.url));

describe("an OpenHands V1 conversation folder (base_state.json, events/event-*.json)", () => {
  it("is imported as one run, with each call's usage from base_state.json", async () => {
    const { transcripts, problems } = await importTranscriptFiles([folder]);
    expect(problems).toEqual([]);
    expect(transcripts).toHaveLength(1);
    const [transcript] = transcripts;
    expect(transcript).toMatchObject({ id: "cd94562403b9487ebdd4018e3f531dfd", format: "openhands", file: folder, model: "openai/gpt-4o-mini", systemKnown: true });
    expect(transcript?.calls.map((call) => call.reportedUsage)).toEqual([
      { promptTokens: 3778, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 36 },
      { promptTokens: 3869, cachedTokens: 3712, cacheWriteTokens: 0, completionTokens: 32 },
      { promptTokens: 3936, cachedTokens: 3840, cacheWriteTokens: 0, completionTokens: 26 },
    ]);
    expect(transcript?.calls[2]?.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "user"]);
    expect(transcript?.notes).toBeUndefined();
  });

  it("is found from its events/ folder too, and a folder of other files is not one", async () => {
    expect(await findOpenHandsConversationFolder(folder)).toBe(folder);
    expect(await findOpenHandsConversationFolder(join(folder, "events"))).toBe(folder);
    expect(await findOpenHandsConversationFolder(fileURLToPath(new URL("fixtures", import.meta.url)))).toBeUndefined();
    expect(await findOpenHandsConversationFolder(join(folder, "base_state.json"))).toBeUndefined();
    const { transcripts } = await importTranscriptFiles([join(folder, "events")]);
    expect(transcripts.map((transcript) => transcript.calls.length)).toEqual([3]);
  });

  const scratch = mkdtemp(join(tmpdir(), "ctxkit-openhands-folder-"));
  afterAll(async () => rm(await scratch, { recursive: true, force: true }));

  it("reads events in the order of their numbers past event-99999, and reports a broken event file while keeping the rest", async () => {
    const conversation = join(await scratch, "conversation");
    await mkdir(join(conversation, "events"), { recursive: true });
    const message = (id: string, text: string) => JSON.stringify({ id, kind: "MessageEvent", source: "user", llm_message: { role: "user", content: [{ type: "text", text }] } });
    await writeFile(join(conversation, "events", "event-100000-b.json"), message("b", "second"));
    await writeFile(join(conversation, "events", "event-99999-a.json"), message("a", "first"));
    await writeFile(join(conversation, "events", "event-100001-c.json"), "{ cut off");
    const { events, problems } = await readOpenHandsConversationFolder(conversation);
    expect(events.map((event) => event.id)).toEqual(["a", "b"]);
    expect(problems).toEqual([{ file: join(conversation, "events", "event-100001-c.json"), reason: expect.stringContaining("not valid JSON") }]);
  });

  it("is not claimed for a folder whose events/ holds other JSON, nor for events/ without base_state.json unless its first event is an OpenHands one", async () => {
    const other = join(await scratch, "deployments");
    await mkdir(join(other, "events"), { recursive: true });
    await writeFile(join(other, "events", "event-1-deploy.json"), JSON.stringify({ name: "deploy", at: 1 }));
    expect(await findOpenHandsConversationFolder(other)).toBeUndefined();
    expect(await findOpenHandsConversationFolder(join(other, "events"))).toBeUndefined();

    const eventsOnly = join(await scratch, "events-only");
    await cp(join(folder, "events"), join(eventsOnly, "events"), { recursive: true });
    expect(await findOpenHandsConversationFolder(eventsOnly)).toBeUndefined();
    expect(await findOpenHandsConversationFolder(join(eventsOnly, "events"))).toBe(eventsOnly);
    const { transcripts } = await importTranscriptFiles([join(eventsOnly, "events")]);
    expect(transcripts.map((transcript) => [transcript.calls.length, transcript.calls[0]?.reportedUsage])).toEqual([[3, undefined]]);
  });

  it("does not follow an event file that links out of the folder, and says so", async () => {
    const conversation = join(await scratch, "linked");
    await cp(folder, conversation, { recursive: true });
    const outside = join(await scratch, "outside.json");
    await writeFile(outside, JSON.stringify({ id: "x", kind: "MessageEvent", source: "user", llm_message: { role: "user", content: [{ type: "text", text: "from elsewhere" }] } }));
    const link = join(conversation, "events", "event-00008-linked.json");
    await symlink(outside, link);
    const { events, problems } = await readOpenHandsConversationFolder(conversation);
    expect(events.map((event) => event.id)).not.toContain("x");
    expect(problems).toEqual([{ file: link, reason: expect.stringContaining("not a regular file") }]);
  });
});

