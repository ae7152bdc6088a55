import { neutraliseMarkers } from "../context/external-content/neutralise-markers.js";
import { derivedOf, type Message, type ToolMessage } from "../types/index.js";

/** Material in a call's arguments that entered the conversation only through external content. */
export interface TaintFinding {
  kind: "url" | "email" | "path" | "text";
  /** The material (neutralised and capped: it is shown to the person and the model). */
  value: string;
  /** The external result it appeared in: its tool and that tool's result number in the session. */
  toolName: string;
  resultNumber: number;
}

export interface TaintInput {
  /** The call's parsed arguments. */
  args: unknown;
  /** The trajectory when the call is made. */
  messages: readonly Message[];
  /** The system prompt (clean: the application wrote it). */
  systemText: string;
  /** Whether a tool result came from outside (its tool's `source`, the config, or its tags). */
  isExternalResult: (message: ToolMessage) => boolean;
}

// Runs of this many characters copied from an external result count as material from it (shorter
// runs are ordinary words; a sentence of instructions is longer).
const copiedTextLength = 40;
const copiedTextStep = 8;

const urlPattern = /\bhttps?:\/\/[^\s"'<>()[\]{}`]+/gi;
const emailPattern = /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi;
const pathPattern = /(?:~|\.{1,2})?\/[\w.@+-]+(?:\/[\w.@+-]+)*|[\w.-]+(?:\/[\w.@+-]+)+/g;

interface ExternalText {
  text: string;
  toolName: string;
  resultNumber: number;
}

/**
 * The taint check over the trajectory: URLs, email addresses, paths and long copied runs of text in
 * a call's arguments that are present in an external tool result and absent from everything that
 * may direct the agent — the system prompt, the person's messages, skills, and results of trusted
 * and workspace tools. Case and runs of whitespace do not matter.
 */
export function findTaint(input: TaintInput): TaintFinding[] {
  const external: ExternalText[] = [];
  const clean: string[] = [normalise(input.systemText)];
  const counts = new Map<string, number>();
  for (const message of input.messages) {
    if (message.role === "tool") {
      const number = (counts.get(message.toolName) ?? 0) + 1;
      counts.set(message.toolName, number);
      if (input.isExternalResult(message)) external.push({ text: normalise(message.content), toolName: message.toolName, resultNumber: message.meta.external?.callNumber ?? number });
      else clean.push(normalise(message.content));
    } else if (message.role === "user" && (message.meta.origin === "user" || derivedOf(message, "skill")) && message.meta.provenance === undefined) {
      // A skill body from a workspace the user has not trusted carries provenance: it is not clean.
      clean.push(normalise(message.content));
    } else if (message.role === "system") {
      clean.push(normalise(message.content));
    }
  }
  if (external.length === 0) return [];
  const cleanText = clean.join("\n");
  const findings: TaintFinding[] = [];
  const seen = new Set<string>();
  const check = (kind: TaintFinding["kind"], value: string) => {
    const needle = normalise(value);
    if (needle.length < 4 || seen.has(needle) || cleanText.includes(needle)) return false;
    const source = external.find((entry) => entry.text.includes(needle));
    if (!source) return false;
    seen.add(needle);
    findings.push({ kind, value: shown(value), toolName: source.toolName, resultNumber: source.resultNumber });
    return true;
  };
  for (const text of stringLeaves(input.args)) {
    const urls = text.match(urlPattern) ?? [];
    for (const url of urls) check("url", url.replace(/[.,;:!?]+$/, ""));
    const rest = urls.reduce((remaining, url) => remaining.split(url).join(" "), text);
    for (const email of rest.match(emailPattern) ?? []) check("email", email);
    for (const path of rest.replace(emailPattern, " ").match(pathPattern) ?? []) check("path", path);
    const flat = normalise(rest.replace(emailPattern, " ").replace(pathPattern, " "));
    for (let start = 0; start + copiedTextLength <= flat.length; start += copiedTextStep) {
      if (check("text", flat.slice(start, start + copiedTextLength))) break;
    }
  }
  return findings;
}

/** How a finding reads in a prompt and in the refusal the model gets. */
export function describeTaintFinding(finding: TaintFinding): string {
  const what = finding.kind === "email" ? "the address" : finding.kind === "url" ? "the URL" : finding.kind === "path" ? "the path" : "the text";
  const value = finding.kind === "text" ? JSON.stringify(finding.value) : finding.value;
  return `${what} ${value} appeared only in ${finding.toolName} result #${finding.resultNumber}`;
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ");
}

function shown(value: string): string {
  const neutral = neutraliseMarkers(value).text.replace(/\s+/g, " ");
  return neutral.length > 80 ? `${neutral.slice(0, 79)}…` : neutral;
}

function stringLeaves(value: unknown, depth = 0): string[] {
  if (typeof value === "string") return [value];
  if (depth > 20 || value === null || typeof value !== "object") return [];
  return Object.values(value as Record<string, unknown>).flatMap((entry) => stringLeaves(entry, depth + 1));
}
