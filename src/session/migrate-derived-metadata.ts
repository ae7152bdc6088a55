import type { DerivedInfo, Message } from "../types/index.js";

/**
 * Gives a message from a version 1 or 2 session the `meta.derived` that version 3 stores. Those
 * versions marked derived messages only in their text; only messages the harness wrote (origin
 * `harness`, which no model or tool output can have) are recognised, so nothing a tool returned is
 * ever taken for a stub, a summary or a checkpoint. Previews of those versions kept their tool's
 * origin and stay ordinary results (clearing them later stores their text as a blob: harmless).
 */
export function migrateDerivedMetadata(message: Message): Message {
  if (message.meta.origin !== "harness" || message.meta.derived !== undefined || message.role === "assistant") return message;
  const derived = legacyDerivedInfo(message.role, message.content, message.meta.id);
  return derived === undefined ? message : { ...message, meta: { ...message.meta, derived } } as Message;
}

function legacyDerivedInfo(role: Message["role"], content: string, id: string): DerivedInfo | undefined {
  const cut = id.indexOf("~");
  const original = cut === -1 ? id : id.slice(0, cut);
  const batch = Number(/~[a-z](\d+)$/.exec(id)?.[1] ?? 0);
  const blobId = /\bblob_[0-9a-f]{16}\b/.exec(content.slice(0, 2000))?.[0];
  if (role === "user" && content.startsWith("<agent_status>")) return { kind: "status" };
  if (role === "user" && content.startsWith("<status_checkpoint>")) {
    const json = content.slice(content.indexOf("\n{") + 1, content.lastIndexOf("</status_checkpoint>")).trim();
    try {
      return { kind: "checkpoint", policy: "status-bar", data: JSON.parse(json) as unknown };
    } catch {
      return undefined;
    }
  }
  if (!content.startsWith("[COMPRESSED]")) return undefined;
  if (role === "tool" && content.startsWith("[COMPRESSED] Cleared old result") && blobId) return { kind: "stub", blobId, replaces: original, batch };
  if (role === "user" && content.startsWith("[COMPRESSED] Archived turns")) return { kind: "archive", replaces: [], batch };
  if (role === "user" && content.startsWith("[COMPRESSED] Summary of the conversation")) return { kind: "summary", replaces: [], batch };
  return { kind: "compressed", replaces: [original], blobIds: blobId ? [blobId] : [], ...(batch > 0 ? { batch } : {}) };
}
