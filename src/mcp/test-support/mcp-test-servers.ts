import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpStdioServerConfig } from "../mcp-config.js";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/** The real npm reference server, started over stdio with this Node. */
export function everythingServer(): McpStdioServerConfig {
  return { command: process.execPath, args: [require.resolve("@modelcontextprotocol/server-everything/dist/index.js"), "stdio"], env: {} };
}

/** The real npm filesystem server, confined to `directory`. */
export function filesystemServer(directory: string): McpStdioServerConfig {
  return { command: process.execPath, args: [require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js"), directory], env: {} };
}

/** The tests' own misbehaving server (see script-server.mjs for its modes and tools). */
export function scriptServer(mode = "well"): McpStdioServerConfig {
  return { command: process.execPath, args: [join(here, "script-server.mjs"), mode], env: {} };
}

/** Whether a process id is still running. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
