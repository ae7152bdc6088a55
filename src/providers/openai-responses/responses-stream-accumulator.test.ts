import { describe, expect, it } from "vitest";
import { ResponsesStreamAccumulator } from "./responses-stream-accumulator.js";

function feed(events: unknown[]) {
  const accumulator = new ResponsesStreamAccumulator();
  for (const event of events) accumulator.apply(event);
  return accumulator.response();
}

const cutCall = [
  { type: "response.output_item.added", output_index: 0, item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "write_file", arguments: "" } },
  { type: "response.function_call_arguments.delta", output_index: 0, item_id: "fc_1", delta: '{"path":"a","content":"abc' },
];

describe("ResponsesStreamAccumulator's stop reason", () => {
  // It was tool_calls, so the loop told the model its JSON was malformed rather than cut.
  it("is length for a call cut by an incomplete response at max_output_tokens", () => {
    const response = feed([...cutCall, { type: "response.incomplete", response: { id: "resp_1", status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, output: [] } }]);
    expect(response.stopReason).toBe("length");
    expect(response.rawStopReason).toBe("max_output_tokens");
    expect(response.content).toEqual([{ type: "tool_call", id: "call_1", name: "write_file", argumentsText: '{"path":"a","content":"abc', arguments: undefined }]);
  });

  it("is tool_calls for a completed response with calls", () => {
    const response = feed([
      ...cutCall,
      { type: "response.function_call_arguments.delta", output_index: 0, item_id: "fc_1", delta: '"}' },
      { type: "response.completed", response: { id: "resp_1", status: "completed", output: [] } },
    ]);
    expect(response.stopReason).toBe("tool_calls");
  });
});
