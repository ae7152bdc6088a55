import { describe, expect, it } from "vitest";
import { CtxkitError } from "../types/errors.js";
import { renderModelRequest } from "./count-rendered-prompt.js";
import { renderChatTemplate } from "./render-chat-template.js";
import { toHfChatMessages } from "./to-hf-chat-messages.js";
import { weatherRequest } from "./test-support/weather-request.js";

// Checked byte for byte against Python Jinja2 3.1 configured as transformers does
// (ImmutableSandboxedEnvironment, trim_blocks, lstrip_blocks, tojson with ensure_ascii=False).
const expectedWeatherPrompt = [
  "<|im_start|>system",
  "You are a weather assistant.",
  "",
  "User: Ada, Hangzhou.",
  "",
  "# Tools",
  "",
  "You may call one or more functions to assist with the user query.",
  "",
  "You are provided with function signatures within <tools></tools> XML tags:",
  "<tools>",
  '{"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city.", "parameters": {"properties": {"city": {"type": "string"}, "unit": {"enum": ["c", "f"], "type": "string"}}, "required": ["city"], "type": "object"}}}',
  "</tools>",
  "",
  "For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:",
  "<tool_call>",
  '{"name": <function-name>, "arguments": <args-json-object>}',
  "</tool_call><|im_end|>",
  "<|im_start|>user",
  "Is it raining in 杭州?<|im_end|>",
  "<|im_start|>assistant",
  "<think>",
  "I need the weather tool.",
  "</think>",
  "",
  "<tool_call>",
  '{"name": "get_weather", "arguments": {"city": "杭州", "unit": "c"}}',
  "</tool_call><|im_end|>",
  "<|im_start|>user",
  "<tool_response>",
  '{"rain":true,"temp_c":18}',
  "</tool_response><|im_end|>",
  "<|im_start|>assistant",
  "<think>",
  "It rains.",
  "</think>",
  "",
  "Yes, it is raining in 杭州 (18 °C).<|im_end|>",
  "",
].join("\n");

describe("renderChatTemplate with Qwen3's template", () => {
  it("renders a tool-call conversation exactly as transformers does", () => {
    const request = weatherRequest();
    const prompt = renderChatTemplate({ messages: toHfChatMessages(request), tools: request.tools });
    expect(prompt).toBe(expectedWeatherPrompt);
  });

  it("appends the assistant opening as the generation prompt", () => {
    const prompt = renderModelRequest(weatherRequest({ messages: [], tools: [] }));
    expect(prompt).toBe(
      "<|im_start|>system\nYou are a weather assistant.\n\nUser: Ada, Hangzhou.<|im_end|>\n<|im_start|>assistant\n",
    );
  });

  it("prints invalid tool-call arguments verbatim", () => {
    const prompt = renderChatTemplate({
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: "", tool_calls: [{ type: "function", function: { name: "f", arguments: "{oops" } }] },
      ],
    });
    expect(prompt).toContain('<tool_call>\n{"name": "f", "arguments": {oops}\n</tool_call>');
  });
});

describe("renderChatTemplate with other templates", () => {
  it("passes extra variables and leaves enable_thinking undefined unless given", () => {
    const template = "{{ bos_token }}{% for m in messages %}[{{ m.role }}]{% endfor %}{{ enable_thinking is defined }}";
    const messages = [{ role: "user" as const, content: "hi" }];
    expect(renderChatTemplate({ template, messages, variables: { bos_token: "<s>" } })).toBe("<s>[user]false");
    expect(renderChatTemplate({ template, messages, enableThinking: true, variables: { bos_token: "" } })).toBe("[user]true");
  });

  it("reports a template that does not parse as template_invalid", () => {
    const render = () => renderChatTemplate({ template: "{% for m in messages %}", messages: [] });
    expect(render).toThrow(CtxkitError);
    expect(render).toThrow(/not valid Jinja/);
  });

  it("reports raise_exception from the template as template_render_failed with the template's words", () => {
    const template = "{{ raise_exception('Conversation roles must alternate') }}";
    try {
      renderChatTemplate({ template, messages: [] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CtxkitError);
      expect((error as CtxkitError).code).toBe("template_render_failed");
      expect((error as CtxkitError).message).toContain("Conversation roles must alternate");
    }
  });
});
