import { describe, expect, it } from "vitest";
import type { ToolMessage } from "../../types/index.js";
import type { ToolResultInfo } from "../context-policy.js";
import { describeToolError } from "./describe-tool-error.js";

const failed = (content: string): ToolMessage => ({ role: "tool", toolCallId: "c1", toolName: "read_file", content, isError: true, meta: { id: "t", origin: "tool", createdAt: "" } });
const info = (kind: ToolResultInfo["errorKind"], args: unknown, name = "read_file"): ToolResultInfo => ({
  call: { type: "tool_call", id: "c1", name, argumentsText: JSON.stringify(args), arguments: args },
  ...(kind ? { errorKind: kind } : {}),
  durationMs: 1,
  callNumber: 2,
  totalCallNumber: 5,
  now: new Date(0),
});
const readFile = { name: "read_file", description: "", parameters: { type: "object", properties: { path: { type: "string" }, offset: { type: "integer", minimum: 1 } }, required: ["path"], additionalProperties: false } };

describe("describeToolError", () => {
  it("turns a missing file into the kind, the exact arguments and concrete next steps", () => {
    const result = describeToolError(failed("Error (not_found): No file report/summary.txt."), info("not_found", { path: "report/summary.txt" }), { workingDirectory: "/ws" });
    expect(result.content).toBe(
      [
        "Error (not_found): No file report/summary.txt.",
        'Called with: read_file {"path":"report/summary.txt"}',
        "What to do next:",
        '- List the directory you expected it in (list_dir), or search for it by name (glob "**/summary.txt"), to see what exists.',
        "- Check the working directory: paths are relative to the workspace root (/ws), not to the last file you read.",
        "- Use the path relative to the workspace exactly as list_dir or glob prints it; do not guess absolute paths.",
      ].join("\n"),
    );
  });

  it("states the schema's expectation for invalid arguments", () => {
    const result = describeToolError(failed("Error (invalid_arguments): offset is past the end."), info("invalid_arguments", { path: "a", offset: 0 }), { tools: [readFile] });
    expect(result.content).toContain("Call 'read_file' again with arguments that match its parameters — required: path (string); optional: offset (integer ≥ 1); no other keys.");
  });

  it("has advice for every kind and keeps raw argument text that was not JSON", () => {
    for (const kind of ["permission", "timeout", "unknown_tool", "rejected", "failed"] as const) {
      const content = describeToolError(failed(`Error (${kind}): x`), info(kind, {})).content;
      expect(content.split("\n").filter((line) => line.startsWith("- ")).length).toBeGreaterThan(0);
    }
    const broken = { ...info("invalid_arguments", undefined), call: { type: "tool_call" as const, id: "c1", name: "read_file", argumentsText: '{"path": ', arguments: undefined } };
    expect(describeToolError(failed("Error (invalid_arguments): not JSON"), broken).content).toContain('Called with: read_file (not valid JSON) {"path": ');
  });

  it("leaves successful results alone", () => {
    const ok = { ...failed("fine"), isError: false };
    expect(describeToolError(ok, info(undefined, { path: "a" }))).toBe(ok);
  });
});
