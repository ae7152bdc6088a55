import type { CallDetail, PromptView, RunSummary, TimelineCall } from "../../src/web/index.js";
import type { Finding, ImportProblem } from "../../src/inspect/index.js";
import type { MessageView } from "../../src/web/message-view.js";

export type { CallDetail, Finding, MessageView, PromptView, RunSummary, TimelineCall };

export interface RunsResponse {
  version: number;
  runs: RunSummary[];
  problems: ImportProblem[];
}

export interface TimelineResponse {
  version: number;
  run: RunSummary;
  calls: TimelineCall[];
}

export interface DiffResponse {
  from: number;
  to: number;
  systemChanged: boolean;
  toolsChanged: boolean;
  keptMessages: number;
  removed: MessageView[];
  replacements: MessageView[];
  appended: MessageView[];
  changed: Array<{ previous: MessageView; next: MessageView }>;
  tail: { previous: string | null; next: string | null; changed: boolean };
  compaction: { reason: string } | null;
  /** Message characters cut because the diff's texts passed its budget (each cut message counts its own in `truncated`). */
  textNotShown: number;
}

// The token travels on every request (the cookie the server set works too; this survives a blocked cookie).
const token = new URLSearchParams(location.search).get("token");

export function withToken(path: string): string {
  if (token === null) return path;
  return `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}`;
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(withToken(path), signal === undefined ? {} : { signal });
  if (!response.ok) {
    const text = await response.text();
    throw new Error(`${response.status}: ${text.slice(0, 300)}`);
  }
  return (await response.json()) as T;
}

export const api = {
  runs: () => getJson<RunsResponse>("./api/runs"),
  timeline: (run: number) => getJson<TimelineResponse>(`./api/runs/${run}/timeline`),
  call: (run: number, index: number, view: PromptView, signal?: AbortSignal) => getJson<CallDetail>(`./api/runs/${run}/calls/${index}?view=${view}`, signal),
  diff: (run: number, from: number, to: number, signal?: AbortSignal) => getJson<DiffResponse>(`./api/runs/${run}/diff?from=${from}&to=${to}`, signal),
  findings: (run: number) => getJson<{ findings: Finding[] }>(`./api/runs/${run}/findings`),
};
