import { textOf, toolCallsOf, type Message, type ToolCallPart } from "../../types/index.js";
import { isCompressedMessage, leadingTextOf } from "./markers.js";
import type { SummarySource } from "./summarizer.js";
import { externalTagOf, recordedTagNonces } from "./tagged-lines.js";

/** How a call reads in stubs and summaries: `read_file {"path":"a.ts"}`, arguments cut at 200 characters. */
export function describeCall(call: Pick<ToolCallPart, "name" | "argumentsText">): string {
  const args = call.argumentsText.length > 200 ? `${call.argumentsText.slice(0, 199)}…` : call.argumentsText;
  return `${call.name} ${args}`;
}

/** The first URL or path in a call's arguments: what facts from its result are cited to. */
export function citationOfCall(call: Pick<ToolCallPart, "arguments" | "argumentsText">): string | undefined {
  const args = call.arguments;
  if (args !== null && typeof args === "object") {
    for (const key of ["url", "uri", "href", "path", "file", "file_path", "filename"]) {
      const value = (args as Record<string, unknown>)[key];
      if (typeof value === "string" && value !== "") return value;
    }
  }
  return /https?:\/\/[^\s"']+/.exec(call.argumentsText)?.[0];
}

/**
 * A unit of the conversation (one message, or a call with its results) as a summary source. The
 * first line is the gist — what was called and whether it worked — and the lines after it the
 * detail: `said:` for the model's text, `result <tool>:` for each result.
 */
export function unitToSource(messages: readonly Message[], label: string): SummarySource {
  const first = messages[0]!;
  if (first.role === "user" || first.role === "system") {
    const kind = isCompressedMessage(first) || first.meta.origin === "harness" ? "summary" : "user";
    // An archive's (or a summary's) lines of tagged results are between the tags it recorded: what
    // is read from them (identifiers) stays theirs. Their sources are read from the tag lines.
    const external = [...(recordedTagNonces(first) ?? [])].map((nonce) => ({ source: "", nonce }));
    return { label, kind, text: first.content, messageId: first.meta.id, ...(external.length > 0 ? { external } : {}) };
  }
  if (first.role === "tool") {
    const tag = externalTagOf(first);
    return { label, kind: "tool", text: `result of ${first.toolName}\nresult ${first.toolName}: ${first.content}`, isError: first.isError, messageId: first.meta.id, ...(tag ? { external: [tag] } : {}) };
  }
  const calls = toolCallsOf(first);
  const results = messages.slice(1).filter((message) => message.role === "tool");
  const outcome = (call: ToolCallPart) => {
    const result = results.find((message) => message.toolCallId === call.id);
    return result === undefined ? "no result" : result.isError ? "failed" : "ok";
  };
  const said = textOf(first).replace(/\s+/g, " ").trim();
  const gist =
    calls.length > 0 ? calls.map((call) => `${describeCall(call)} → ${outcome(call)}`).join("; ") : said.slice(0, 200) || "(no text)";
  const detail = [said === "" ? undefined : `said: ${said}`, ...results.map((result) => `result ${result.toolName}: ${leadingTextOf(result)}`)];
  const citation = calls.map(citationOfCall).find((value) => value !== undefined);
  const external = results.flatMap((result) => externalTagOf(result) ?? []);
  return {
    label,
    kind: "assistant",
    text: [gist, ...detail.filter((line): line is string => line !== undefined)].join("\n"),
    isError: results.some((result) => result.isError),
    messageId: first.meta.id,
    ...(citation ? { citation } : {}),
    ...(external.length > 0 ? { external } : {}),
  };
}
