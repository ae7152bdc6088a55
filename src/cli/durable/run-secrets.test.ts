import { describe, expect, it } from "vitest";
import { fillRunSecrets, leaveOutRunSecrets } from "./run-secrets.js";

describe("a run's secrets", () => {
  const settings = {
    baseURL: "https://u:p@llm.example.com/v1",
    mcpServers: { remote: { url: "https://a:b@mcp.example.com/mcp", headers: { Authorization: "Bearer x" } }, local: { command: "s", args: [], env: { TOKEN: "t" } } },
  };

  it("refuse an embeddings server URL with user:password, pointing to the key variable setting", () => {
    expect(() => leaveOutRunSecrets({ toolSearchEmbeddingsUrl: "http://user:secret@127.0.0.1:8080/v1" })).toThrow(/toolSearchEmbeddingsUrl \(--tool-search-embeddings-url\) has a user:password.*toolSearchEmbeddingsApiKeyEnv/);
    expect(leaveOutRunSecrets({ toolSearchEmbeddingsUrl: "http://127.0.0.1:8080/v1" }).settings).toEqual({ toolSearchEmbeddingsUrl: "http://127.0.0.1:8080/v1" });
  });

  it("are left out by name and filled in from the worker's own config and environment", () => {
    const { settings: stored, leftOut } = leaveOutRunSecrets(settings);
    expect(JSON.stringify(stored)).not.toMatch(/Bearer|u:p|a:b|"t"/);
    const filled = fillRunSecrets(stored, leftOut, {
      baseURL: "https://u:p@llm.example.com/v1",
      mcpServers: { remote: { url: "https://a:b@mcp.example.com/mcp", headers: { Authorization: "Bearer worker" } } },
      environment: { TOKEN: "worker-token" },
      host: "worker-1",
    });
    expect(filled).toEqual({
      baseURL: "https://u:p@llm.example.com/v1",
      mcpServers: { remote: { url: "https://a:b@mcp.example.com/mcp", headers: { Authorization: "Bearer worker" } }, local: { command: "s", args: [], env: { TOKEN: "worker-token" } } },
    });
  });

  it("fail the run with option_invalid naming the value and the worker's host when the worker lacks one", () => {
    const { settings: stored, leftOut } = leaveOutRunSecrets(settings);
    expect(() => fillRunSecrets(stored, leftOut, { baseURL: "https://u:p@llm.example.com/v1", mcpServers: {}, environment: {}, host: "worker-1" })).toThrow(
      expect.objectContaining({ code: "option_invalid", message: expect.stringMatching(/MCP server 'remote'.*worker-1/) }),
    );
  });
});
