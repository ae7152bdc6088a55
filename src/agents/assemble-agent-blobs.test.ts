import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCompression } from "../context/compression/create-compression-policy.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { createSessionStore } from "../session/index.js";
import { defineTool } from "../tools/tool.js";
import { assembleAgent } from "./assemble-agent.js";

const log = `${Array.from({ length: 20_000 }, (_, index) => `line ${index}: ok`).join("\n")}\nTHE END OF THE LOG\n`;
const readLog = defineTool<Record<string, never>>({ name: "read_log", description: "Read the build log.", parameters: { type: "object", properties: {} }, execute: async () => log });

// A library user resuming a compressed session (README's example) keeps `recall` of the originals:
// the blobs live with the session store, not in the memory of the process that wrote them.
describe("assembleAgent and the session's blobs", () => {
  it("keeps a preview's original in the session store's blobs, and a resumed agent recalls it", async () => {
    const directory = join(mkdtempSync(join(tmpdir(), "ctxkit-assemble-blobs-")), "sessions");
    const assemble = (turns: Parameters<typeof createScriptedProvider>[0]["turns"], session: { mode: "new" } | { mode: "resume"; id: string }) => {
      const provider = createScriptedProvider({ turns });
      return assembleAgent({ provider, system: "You read logs.", tools: [readLog], policies: [createCompression({ policy: "ctxkit", contextWindow: 32_000 })], session: { store: createSessionStore({ directory }), ...session } }).then((assembled) => ({ ...assembled, provider }));
    };
    const first = await assemble([{ toolCalls: [{ name: "read_log", arguments: {} }] }, "The log is long."], { mode: "new" });
    await first.agent.run("Read the log.").result();
    await first.session!.close();
    const [blobFile] = readdirSync(join(directory, "blobs"));
    expect(blobFile).toMatch(/^blob_[0-9a-f]+\.txt$/);
    const blob = blobFile!.replace(/\.txt$/, "");

    // Another process: a new store object over the same directory.
    const second = await assemble([{ toolCalls: [{ name: "recall", arguments: { blob, offset: log.length - 40 } }] }, "It ends well."], { mode: "resume", id: first.session!.id });
    await second.agent.run("How does the log end?").result();
    await second.session!.close();
    const recalled = JSON.stringify(second.provider.bodies.at(-1));
    expect(recalled).toContain("THE END OF THE LOG");
    expect(recalled).not.toContain("No blob");
  });
});
