/** What the status bar tells the model about where it runs (seed, "系统状态感知"); see `detectSystemState`. */
export interface SystemState {
  workingDirectory: string;
  /** e.g. `linux 6.8.0 (x64)`: lets the model pick `apt` or `brew`, `/` or `\\`. */
  os: string;
  shell?: string;
  /** e.g. `node v20.11.1`. */
  runtime: string;
}
