import { describe, expect, it } from "vitest";
import { boundDiffMessages } from "./bound-diff-messages.js";
import type { MessageView } from "./message-view.js";

const view = (text: string, truncated = 0): MessageView => ({ id: text.slice(0, 3), role: "tool", origin: "tool", text, truncated });

describe("a diff's message texts bounded in sum", () => {
  it("leaves texts whole while their sum fits", () => {
    const messages = [view("aaaa"), view("bbbb", 7)];
    expect(boundDiffMessages(messages, { total: 8 })).toBe(0);
    expect(messages).toEqual([view("aaaa"), view("bbbb", 7)]);
  });

  it("cuts the message that passes the budget and empties the ones after it, counting each cut in truncated", () => {
    const messages = [view("aaaa"), view("bbbb", 7), view("cccc")];
    expect(boundDiffMessages(messages, { total: 6 })).toBe(6);
    expect(messages.map((message) => [message.text, message.truncated])).toEqual([["aaaa", 0], ["bb", 9], ["", 4]]);
  });

  it("does not split an emoji at the cut", () => {
    const messages = [view("ab😀cd")];
    boundDiffMessages(messages, { total: 3 });
    expect(messages[0]).toMatchObject({ text: "ab", truncated: 4 });
  });
});
