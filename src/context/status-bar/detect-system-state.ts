import { arch, platform, release } from "node:os";

/** What the status bar tells the model about where it runs (seed, "系统状态感知"). */
export interface SystemState {
  workingDirectory: string;
  /** e.g. `linux 6.8.0 (x64)`: lets the model pick `apt` or `brew`, `/` or `\`. */
  os: string;
  shell?: string;
  /** e.g. `node v20.11.1`. */
  runtime: string;
}

/**
 * Reads the facts once from the process. The only function of the status bar that looks outside its
 * arguments: it runs when the status bar is created (or by the caller), never per call, so every
 * status rendering stays a pure function of (trajectory, settings, clock). `workingDirectory` is the
 * agent's workspace when given — the tools resolve paths there, not in the process's cwd.
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
