import { chooseStatusBarMode, type StatusBarModeDecision } from "../../context/status-bar/choose-status-bar-mode.js";
import { measureModeInputs } from "../../context/status-bar/measure-mode-inputs.js";
import { resolveStatusBarSettings } from "../../context/status-bar/status-bar-settings.js";
import { toRequestLayers } from "../../context/prefix-guard/request-layers.js";
import { createScriptedProvider } from "../../providers/scripted/index.js";
import { getTokenCounter } from "../../tokens/get-token-counter.js";
import type { ModelRequest } from "../../types/index.js";
import { callLimitTask } from "./call-limit-task.js";
import { runStatusBarTask } from "./run-status-bar-task.js";

export interface StatusBarPreview {
  /** The experiment 2-8 request (after three calls to Xfinity, "call them again?") with every part on. */
  withStatusBar: ModelRequest;
  withoutStatusBar: ModelRequest;
  promptTokens: { with: number; without: number; status: number };
  /** What `auto` would choose for this request with α = 0.1 (the default). */
  autoDecision: StatusBarModeDecision;
}

/** Builds the preview offline: the scenario's scripted history, then the follow-up request, captured. */
export async function buildStatusBarPreview(): Promise<StatusBarPreview> {
  const capture = async (arm: "all-on" | "all-off") => {
    const provider = createScriptedProvider({ turns: callLimitTask.solution(() => true) });
    await runStatusBarTask(callLimitTask, arm, { provider });
    return provider.requests[0]!;
  };
  const [withStatusBar, withoutStatusBar] = [await capture("all-on"), await capture("all-off")];
  const counter = getTokenCounter("estimate");
  const tokens = (request: ModelRequest) => toRequestLayers(request).reduce((total, layer) => total + counter.count(layer.text), 0);
  const status = withStatusBar.tail?.content ?? "";
  const settings = resolveStatusBarSettings({ environment: { workingDirectory: "", os: "", runtime: "" } });
  return {
    withStatusBar,
    withoutStatusBar,
    promptTokens: { with: tokens(withStatusBar), without: tokens(withoutStatusBar), status: counter.count(status) },
    autoDecision: chooseStatusBarMode(measureModeInputs(withStatusBar.messages, status, settings)),
  };
}

/** The request as a list: one line per message (role, then its first line, cut), and the tail in full. */
export function formatRequestListing(request: ModelRequest, width = 110): string {
  const cut = (text: string) => {
    const line = text.split("\n", 1)[0] ?? "";
    return line.length > width ? `${line.slice(0, width - 1)}…` : line;
  };
  const lines = [`system     ${cut(request.system.staticText)}`, `tools      ${request.tools.map((tool) => tool.name).join(", ")}`];
  for (const message of request.messages) {
    if (message.role === "assistant") {
      for (const part of message.content) {
        lines.push(part.type === "tool_call" ? `assistant  → ${part.name} ${cut(part.argumentsText)}` : part.type === "text" ? `assistant  ${cut(part.text)}` : "assistant  (thinking)");
      }
    } else {
      lines.push(`${message.role.padEnd(10)} ${cut(message.content)}`);
    }
  }
  if (request.tail) lines.push("user (tail, never stored):", ...request.tail.content.split("\n").map((line) => `  ${line}`));
  return lines.join("\n");
}
