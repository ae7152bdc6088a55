import type { LoadedSession, SessionWarning } from "./loaded-session.js";
import { collectSubAgentLinks } from "./sub-agent-links.js";

/** One row of `SessionStore.list()`. A file that cannot be loaded is listed with `error` instead of details. */
export type SessionSummary =
  | {
      id: string;
      path: string;
      createdAt: string;
      /** The file's modification time (the last flush). */
      updatedAt: string;
      messageCount: number;
      requestCount: number;
      provider: string;
      model: string;
      /** The first thing the user asked, shortened to one line. */
      preview: string;
      /** How the last task ended (`final_answer`, `error`, …), or `unfinished` when it has no end record. */
      lastStopReason?: string;
      /** The sessions this one's sub-agents recorded, in call order (absent when none did): a child names no parent itself. */
      subAgentSessionIds?: string[];
      warnings: SessionWarning[];
      error?: undefined;
    }
  | {
      id: string;
      path: string;
      updatedAt: string;
      error: { code: string; message: string };
    };

const PREVIEW_LENGTH = 100;

export function summarizeSession(id: string, session: LoadedSession, updatedAt: string): SessionSummary {
  const subAgentSessionIds = collectSubAgentLinks(session.messages).flatMap((link) => (link.run.sessionId === undefined ? [] : [link.run.sessionId]));
  return {
    id,
    path: session.path,
    createdAt: session.header.createdAt,
    updatedAt,
    messageCount: session.messages.length,
    requestCount: session.requests.length,
    provider: session.prefix.provider,
    model: session.prefix.model,
    preview: toPreview(firstUserInput(session)),
    ...(session.runs.length > 0 ? { lastStopReason: session.runs.at(-1)!.end?.stopReason ?? "unfinished" } : {}),
    ...(subAgentSessionIds.length > 0 ? { subAgentSessionIds } : {}),
    warnings: session.warnings,
  };
}

function firstUserInput(session: LoadedSession): string {
  const run = session.runs[0];
  if (run) return run.start.input;
  const message = session.messages.find((candidate) => candidate.role === "user" && candidate.meta.origin === "user");
  return message?.role === "user" ? message.content : "";
}

function toPreview(text: string): string {
  // Code points, not UTF-16 units, so an emoji is never cut in half.
  const characters = [...text.replace(/\s+/g, " ").trim()];
  return characters.length <= PREVIEW_LENGTH ? characters.join("") : `${characters.slice(0, PREVIEW_LENGTH - 1).join("")}…`;
}
