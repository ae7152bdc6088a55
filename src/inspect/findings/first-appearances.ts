import type { Message } from "../../types/index.js";
import type { FindingInput } from "./finding.js";

export interface MessageAppearance {
  /** The first call whose request contains the message. */
  call: number;
  /** Its index in that request's messages. */
  index: number;
  message: Message;
}

/** Every distinct message of a transcript's requests (tail included) once, at the call where it first appears. */
export function firstAppearances(input: FindingInput): MessageAppearance[] {
  const seen = new WeakSet<Message>();
  const result: MessageAppearance[] = [];
  input.transcript.calls.forEach((call, callIndex) => {
    const messages = call.request.tail === undefined ? call.request.messages : [...call.request.messages, call.request.tail];
    messages.forEach((message, index) => {
      if (seen.has(message)) return;
      seen.add(message);
      result.push({ call: callIndex, index, message });
    });
  });
  return result;
}

export function excerptOf(text: string, limit = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}
