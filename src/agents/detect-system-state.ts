import { arch, platform, release } from "node:os";
import type { SystemState } from "../context/status-bar/system-state.js";

export type { SystemState };

/**
 * Reads the facts the status bar shows about where the agent runs, once, from the process. It lives
 * outside `src/context` because it reads the environment: pass its result to
 * `createStatusBar({ environment })`, so every status rendering stays a pure function of
 * (trajectory, settings, clock). `workingDirectory` is the agent's workspace when given — the tools
 * resolve paths there, not in the process's cwd.
 */
export function detectSystemState(workingDirectory?: string): SystemState {
  const shell = process.env.SHELL ?? process.env.ComSpec;
  return {
    workingDirectory: workingDirectory ?? process.cwd(),
    os: `${platform()} ${release()} (${arch()})`,
    ...(shell ? { shell } : {}),
    runtime: `node ${process.version}`,
  };
}
