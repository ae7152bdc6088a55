import { describe, expect, it } from "vitest";
import { convertToAnthropicSystem } from "./convert-to-anthropic-system.js";

describe("convertToAnthropicSystem", () => {
  it("gives the static block, then the session block", () => {
    expect(JSON.stringify(convertToAnthropicSystem({ staticText: "S", sessionText: "U" }))).toBe(
      '[{"type":"text","text":"S"},{"type":"text","text":"U"}]',
    );
  });
  it("leaves out empty parts", () => {
    expect(convertToAnthropicSystem({ staticText: "S", sessionText: "" })).toEqual([{ type: "text", text: "S" }]);
    expect(convertToAnthropicSystem({ staticText: "" })).toEqual([]);
  });
});
