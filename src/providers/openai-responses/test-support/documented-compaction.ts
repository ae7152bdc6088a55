// The compacted response object exactly as OpenAI's API reference shows it ("Compact a response",
// https://platform.openai.com/docs/api-reference/responses/compact): a `response.compaction` whose
// output keeps the user message and adds an opaque `compaction` item.
export const documentedCompaction = JSON.stringify({
  id: "resp_001",
  object: "response.compaction",
  created_at: 1764967971,
  output: [
    { id: "msg_000", type: "message", status: "completed", content: [{ type: "input_text", text: "Create a simple landing page for a dog petting cafe." }], role: "user" },
    { id: "cmp_001", type: "compaction", encrypted_content: "gAAAAABpM0Yj-...=" },
  ],
  usage: { input_tokens: 139, input_tokens_details: { cached_tokens: 0 }, output_tokens: 438, output_tokens_details: { reasoning_tokens: 64 }, total_tokens: 577 },
});
