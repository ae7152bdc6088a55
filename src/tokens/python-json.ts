/**
 * JSON as Python's `json.dumps(value, ensure_ascii=False)` writes it — `", "` between items and
 * `": "` after keys — which is how chat templates print tool schemas and arguments (`tojson`).
 */
export function toPythonJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(toPythonJson).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value).filter(([, entry]) => entry !== undefined);
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}: ${toPythonJson(entry)}`).join(", ")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
