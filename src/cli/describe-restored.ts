import type { RestoredReport } from "../tools/builtin/protected-files.js";

/** One line for the user: which of ctxkit's own files a command changed, and what was done about it. */
export function describeRestored(report: RestoredReport): string {
  const parts = [];
  if (report.restored.length > 0) parts.push(`a ${report.tool} call changed ${report.restored.join(", ")}; the change was undone (the prior bytes are back)`);
  if (report.notRestored.length > 0) parts.push(`a ${report.tool} call changed ${report.notRestored.join(", ")}, which could not be put back: check them`);
  return `${parts.join("; ")}. Edit ctxkit's config yourself if that change was wanted.`;
}
