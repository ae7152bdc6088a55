import { describe, expect, it } from "vitest";
import { createAgent } from "../loop/create-agent.js";
import { ConfigError } from "../types/errors.js";
import { createScriptedProvider } from "./scripted/index.js";
import type { Provider } from "./provider.js";

/** A provider as a third party might write it against another ctxkit: its own version, or none. */
function providerClaiming(version: unknown): Provider {
  const scripted = createScriptedProvider({ turns: ["hi"] });
  return { ...scripted, specificationVersion: version } as unknown as Provider;
}

describe("the provider contract version", () => {
  it("lets createAgent run a provider that implements this contract", async () => {
    const agent = createAgent({ provider: createScriptedProvider({ turns: ["hi"] }), system: "s" });
    expect((await agent.run("hello").result()).finalText).toBe("hi");
  });

  it.each([
    ["another version", "v2", 'implements contract "v2"'],
    ["no version at all", undefined, "sets no specificationVersion"],
  ])("refuses a provider with %s before any call, saying how to fix it", (_label, version, found) => {
    const provider = providerClaiming(version);
    let thrown: unknown;
    try {
      createAgent({ provider, system: "s" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).code).toBe("provider_contract_unsupported");
    expect((thrown as ConfigError).message).toContain(`Provider 'scripted' ${found}`);
    expect((thrown as ConfigError).message).toContain('Set specificationVersion: "v1"');
  });
});
