import type { Message, UserMessage } from "../../types/index.js";
import { formatDuration, formatTimestamp } from "./format-timestamp.js";

const userMetadataPattern = /^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\](?: \[[^\]\n]* since your last reply\])? /;

/**
 * `[2025-09-14 10:30:45] [12 min since your last reply] Can you call them again?` — the user's
 * message with its time and the time since the model last answered, written once when the loop
 * creates the message and frozen with it (seed, "事件的侧信道信息"). Pure.
 */
export function annotateUserMessage(message: UserMessage, trajectory: readonly Message[], now: Date, timeZone = "UTC"): UserMessage {
  let lastReply: string | undefined;
  for (let index = trajectory.length - 1; index >= 0 && lastReply === undefined; index--) {
    const candidate = trajectory[index]!;
    if (candidate.role === "assistant") lastReply = candidate.meta.createdAt;
  }
  const since = lastReply === undefined || Number.isNaN(Date.parse(lastReply)) ? "" : ` [${formatDuration(now.getTime() - Date.parse(lastReply))} since your last reply]`;
  return { ...message, content: `[${formatTimestamp(now, timeZone)}]${since} ${message.content}` };
}

/** The person's words without the metadata `annotateUserMessage` put in front (for the goal recitation). */
export function stripUserMetadata(content: string): string {
  return content.replace(userMetadataPattern, "");
}
