import type { ContextPolicy } from "../../context/context-policy.js";
import { formatCount } from "../../context/format-count.js";
import { ConfigError, ToolError, type Tool, type ToolSource, type UserMessage } from "../../types/index.js";
import { createNotesFile, type NotesFile } from "./notes-file.js";
import { readNotesProvenance, recordNotesProvenance } from "./notes-provenance.js";
import { restoreNotesSnapshot, takeNotesSnapshot, type NotesReplay } from "./notes-snapshot.js";

export const notesReadToolName = "notes_read";
export const notesWriteToolName = "notes_write";
export const notesPolicyName = "notes";

export interface NotesOptions {
  /** The notes file (a function when the path is known only once the session has started). */
  path: string | (() => string);
  /** How the status and the tools name the file to the model, e.g. "NOTES.md" (default "the session's notes file"). */
  label?: string;
  /** The most characters the notes may hold (default 20 000): the model is told to condense beyond it. */
  maxCharacters?: number;
  /**
   * Where the notes come from, for the tools' `source`: `trusted` for the session's own file
   * (default), `workspace` for a file the person (or another program) may also edit.
   */
  source?: ToolSource;
  /**
   * A run executed again after a crash (a durable worker's): its notes are put back as the run
   * found them before its first request, and the tools, run again, rebuild them (see NotesReplay).
   * Only for a file nothing but these tools changes (the session's own, `source` trusted).
   */
  replay?: NotesReplay;
}

export interface NotesPolicy extends ContextPolicy {
  readonly file: NotesFile;
}

/**
 * Notes outside the context (the Write strategy): `notes_write` keeps decisions, constraints and
 * failed approaches in a file, `notes_read` brings them back. The file is never part of the
 * trajectory, so no compaction can lose it; the request's tail says the notes exist and how large
 * they are, and a compaction that removes tool calls is followed by a checkpoint pointing to them.
 */
export function createNotes(options: NotesOptions): NotesPolicy {
  const maxCharacters = options.maxCharacters ?? 20_000;
  const label = options.label ?? "the session's notes file";
  const source = options.source ?? "trusted";
  // Four bytes per character at most in UTF-8: enough to read back any notes written within the limit.
  const maxBytes = maxCharacters * 4;
  const file = createNotesFile(options.path, maxBytes);
  let measured = false;
  if (options.replay && source !== "trusted") {
    throw new ConfigError("option_invalid", `createNotes: replay needs notes only its tools change (source "trusted"); ${label} is "${source}" content. Leave replay out for it.`);
  }
  // Once, before the notes are first looked at (the first request's notes line, or a tool call).
  let started: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const replay = options.replay;
    if (!replay) return Promise.resolve();
    return (started ??= (async () => {
      await restoreNotesSnapshot(file.path, await replay.startingNotes(() => takeNotesSnapshot(file.path, maxBytes)));
    })());
  };

  const read: Tool<Record<string, never>> = {
    name: notesReadToolName,
    description:
      `Read your notes (${label}): decisions, constraints, findings and failed approaches you recorded with ${notesWriteToolName}. ` +
      "They are kept outside the conversation and survive when older turns are summarised; read them after a summary, or before repeating work.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
    parallelSafe: true,
    risk: "read",
    source,
    async execute() {
      await start();
      const text = await file.read();
      const cut = file.cutFrom === undefined ? "" : `\n\n[… cut: ${label} has ${formatCount(file.cutFrom)} bytes; only its start is shown]`;
      if (text === "" && cut === "") return "The notes are empty.";
      // Notes written from untrusted content come back as untrusted (see notes-provenance.ts).
      return (await readNotesProvenance(file.path)).length > 0 ? { content: `${text}${cut}`, source: "external" } : `${text}${cut}`;
    },
  };
  const write: Tool<{ text: string; mode?: "append" | "replace" }> = {
    name: notesWriteToolName,
    description:
      `Record something worth keeping in your notes (${label}): a decision and why, a constraint you found, an approach that failed, ` +
      `a result you will need later. "append" (the default) adds the text as a new paragraph; "replace" rewrites the whole notes ` +
      `(use it to condense them). At most ${formatCount(maxCharacters)} characters in all. Example: ` +
      '{"text": "Decision: keep the v2 parser; v3 breaks on CRLF files (tried, failed)."}',
    parameters: {
      type: "object",
      properties: {
        text: { type: "string", description: "The text to add, or the whole new notes with mode replace." },
        mode: { type: "string", enum: ["append", "replace"], description: "append (default) or replace" },
      },
      required: ["text"],
      additionalProperties: false,
    },
    risk: "write",
    source,
    async execute({ text, mode = "append" }, context) {
      const refusal = options.replay?.writeRefusal?.();
      if (refusal !== undefined) throw new ToolError("rejected", refusal);
      await start();
      const current = mode === "append" ? await file.read() : "";
      // A file edited outside ctxkit past what a read returns: appending to its start would drop the rest.
      if (mode === "append" && file.cutFrom !== undefined) {
        throw new ToolError(
          "invalid_arguments",
          `${label} has ${formatCount(file.cutFrom)} bytes, more than ${notesReadToolName} reads, so appending would lose its end. ` +
            `Rewrite the notes shorter with {"mode": "replace"} (it replaces the whole file), or ask the user to shorten it.`,
        );
      }
      const next = mode === "append" && current !== "" ? `${current.replace(/\n+$/, "")}\n\n${text.trim()}\n` : `${text.trim()}\n`;
      if (next.length > maxCharacters) {
        throw new ToolError(
          "invalid_arguments",
          `The notes would hold ${formatCount(next.length)} characters, more than the ${formatCount(maxCharacters)} allowed. ` +
            `Read them with ${notesReadToolName} and rewrite them shorter with {"mode": "replace"}.`,
        );
      }
      await file.write(next);
      await recordNotesProvenance(file.path, context.messages ?? [], mode);
      return `Notes ${mode === "append" ? "updated" : "replaced"}: ${formatCount(next.length)} characters in ${label}.`;
    },
  };

  return {
    name: notesPolicyName,
    // The notes file is the parent's session's; a fork still has the notes tools (they are in its prefix).
    inherit: "never",
    order: 100,
    file,
    tools: [read, write] as unknown as Tool[],
    async prepareContext() {
      await start();
      // A workspace file may change between calls; the session's own only through the tools.
      if (!measured || source !== "trusted") await file.refresh();
      measured = true;
      return undefined;
    },
    tail() {
      if (file.characters === 0) return undefined;
      return `<agent_notes>\nnotes: ${formatCount(file.characters)} characters in ${label}, outside the conversation; ${notesReadToolName} reads them\n</agent_notes>`;
    },
    checkpoint(_messages, now, id): UserMessage | undefined {
      if (file.characters === 0) return undefined;
      return {
        role: "user",
        content:
          `<notes_pointer>\nEarlier turns were compacted above. Decisions, constraints and failed approaches recorded with ${notesWriteToolName} are in your notes ` +
          `(${formatCount(file.characters)} characters in ${label}), not in the summary: read them with ${notesReadToolName} before you go on.\n</notes_pointer>`,
        meta: { id, origin: "harness", createdAt: now.toISOString(), derived: { kind: "checkpoint", policy: notesPolicyName, data: { characters: file.characters } } },
      };
    },
  };
}
