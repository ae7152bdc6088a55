import { derivedOf, type Message, type UserMessage } from "../../types/index.js";

export const statusOpenTag = "<agent_status>";
export const statusCloseTag = "</agent_status>";

/**
 * A status message the harness stored in the trajectory (append mode). Recognised by the metadata
 * the harness stored with it, so text that imitates the tag cannot pass for one.
 */
export function isStatusMessage(message: Message): message is UserMessage {
  return message.role === "user" && derivedOf(message, "status") !== undefined;
}

/** A message the person wrote (not a status, summary or other harness message in the user role). */
export function isPersonMessage(message: Message): message is UserMessage {
  return message.role === "user" && message.meta.origin === "user";
}

/** Index of the current run's first message — the last message the person wrote — or -1. */
export function currentRunStart(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index--) if (isPersonMessage(messages[index]!)) return index;
  return -1;
}

/**
 * Where the current run stands, read back from the trajectory alone (so a restarted process agrees
 * with the one that stopped): whether a model call already happened in this run, and whether a
 * status was stored in it — which is how `auto` remembers that it chose append.
 */
export function runProgress(messages: readonly Message[]): { calledModel: boolean; storedStatus: boolean } {
  let calledModel = false;
  let storedStatus = false;
  for (let index = currentRunStart(messages) + 1; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === "assistant") calledModel = true;
    else if (isStatusMessage(message)) storedStatus = true;
  }
  return { calledModel, storedStatus };
}

/** A status stored in append mode. The id is derived from the position and time, so the policy needs no id generator. */
export function createStatusMessage(text: string, position: number, now: Date): UserMessage {
  return { role: "user", content: text, meta: { id: `status_${position}_${now.getTime().toString(36)}`, origin: "harness", createdAt: now.toISOString(), derived: { kind: "status" } } };
}
