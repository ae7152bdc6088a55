import { diffCalls } from "../inspect/index.js";
import { boundDiffMessages } from "./bound-diff-messages.js";
import { boundShownText } from "./bound-shown-text.js";
import type { CallDetailBuilder } from "./call-detail.js";
import { toMessageView } from "./message-view.js";
import { toRunSummary, toTimeline } from "./timeline-json.js";
import type { ViewSource } from "./view-source.js";

export interface ApiResponse {
  status: number;
  body: unknown;
}

/**
 * The viewer's JSON API (paths under /api/):
 * - `runs`: every run's summary, the source's version and the problems met reading the files;
 * - `runs/<r>/timeline`: per-call numbers (no text);
 * - `runs/<r>/calls/<n>?view=template|wire`: one call's prompt text, status bar, response, usage;
 * - `runs/<r>/diff?from=<a>&to=<b>`: what changed from call a to call b (default: the one before b), its
 *   texts bounded like a call's (`textNotShown`: message characters cut beyond the diff's budget);
 * - `runs/<r>/findings`: the anti-patterns inspect found, each with the calls it shows on.
 */
export async function handleApiRequest(source: ViewSource, details: CallDetailBuilder, path: string, query: URLSearchParams): Promise<ApiResponse> {
  const parts = path.split("/").filter((part) => part !== "");
  if (parts.length === 1 && parts[0] === "runs") {
    return ok({ version: source.version(), runs: source.runs().map(toRunSummary), problems: source.problems() });
  }
  if (parts[0] !== "runs" || parts.length < 3) return notFound(`No API route ${path}.`);
  const runIndex = toIndex(parts[1]);
  const run = runIndex === undefined ? undefined : source.runs()[runIndex];
  if (run === undefined) return notFound(`No run ${parts[1]}; there are ${source.runs().length}.`);
  const calls = run.imported.calls.length;
  switch (parts[2]) {
    case "timeline":
      return ok({ version: source.version(), run: toRunSummary(run, runIndex!), calls: toTimeline(run) });
    case "findings":
      return ok({ findings: run.analyzed.findings });
    case "calls": {
      const index = toIndex(parts[3]);
      const view = query.get("view") ?? "template";
      if (view !== "template" && view !== "wire") return badRequest("view must be template or wire.");
      const detail = index === undefined ? undefined : await details.build(run, runIndex!, index, view);
      return detail === undefined ? notFound(`No call ${parts[3] ?? ""}; the run has ${calls} (0-based).`) : ok(detail);
    }
    case "diff": {
      const to = toIndex(query.get("to") ?? undefined) ?? calls - 1;
      const from = toIndex(query.get("from") ?? undefined) ?? to - 1;
      const previous = run.imported.calls[from];
      const next = run.imported.calls[to];
      if (previous === undefined || next === undefined) return badRequest(`from and to must be calls 0–${calls - 1}; got ${from} and ${to}.`);
      const diff = diffCalls(previous, next);
      const removed = diff.removed.map(toMessageView);
      const replacements = diff.replacements.map(toMessageView);
      const changed = diff.changed.map((pair) => ({ previous: toMessageView(pair.previous), next: toMessageView(pair.next) }));
      const appended = diff.appended.map(toMessageView);
      // What a compaction replaced and wrote comes first: it is what the diff is opened for.
      const textNotShown = boundDiffMessages([...removed, ...replacements, ...changed.flatMap((pair) => [pair.previous, pair.next]), ...appended]);
      const boundTail = (text: string | undefined) => (text === undefined ? null : boundShownText(text));
      return ok({
        from,
        to,
        systemChanged: diff.systemChanged,
        toolsChanged: diff.toolsChanged,
        keptMessages: diff.keptMessages,
        removed,
        replacements,
        appended,
        changed,
        tail: { previous: boundTail(diff.tail.previous?.content), next: boundTail(diff.tail.next?.content), changed: diff.tail.changed },
        compaction: diff.compaction === undefined ? null : { ...diff.compaction, reason: boundShownText(diff.compaction.reason) },
        textNotShown,
      });
    }
    default:
      return notFound(`No API route ${path}.`);
  }
}

function toIndex(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,7}$/.test(value)) return undefined;
  return Number(value);
}

const ok = (body: unknown): ApiResponse => ({ status: 200, body });
const notFound = (error: string): ApiResponse => ({ status: 404, body: { error } });
const badRequest = (error: string): ApiResponse => ({ status: 400, body: { error } });
