// Sessions: the first agent records its trajectory in an append-only JSONL file; a second agent
// resumes it and continues the same bytes, so a provider's prompt cache keeps working.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgent, createSessionStore, rebuildRequest, startSession } from "ctxkit";
import { createScriptedProvider } from "ctxkit/testing";

const store = createSessionStore({ directory: await mkdtemp(join(tmpdir(), "ctxkit-example-sessions-")) });
const system = "You are a terse assistant.";

const firstProvider = createScriptedProvider({ turns: ["Noted: your name is Ada."] });
const first = await startSession(store, { system, tools: [], provider: firstProvider });
await createAgent({ provider: firstProvider, system, session: first.session }).run("My name is Ada.").result();
await first.session.close();

// Later, or in another process: resume by id.
const secondProvider = createScriptedProvider({ turns: ["Your name is Ada."] });
const resumed = await startSession(store, { id: first.session.id, system, tools: [], provider: secondProvider });
const agent = createAgent({ provider: secondProvider, system, session: resumed.session, messages: resumed.messages });
const result = await agent.run("What is my name?").result();
await resumed.session.close();

console.log(`resumed ${resumed.resumed ? "yes" : "no"}, ${resumed.messages.length} stored messages, answer: ${JSON.stringify(result.stopReason)}`);
// Every call can be rebuilt exactly from the file.
const loaded = await store.load(first.session.id);
const second = rebuildRequest(loaded, 1);
console.log(`call 2 sent ${second.messages.length} messages; session file ${store.path(first.session.id)}`);
