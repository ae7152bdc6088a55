import { existsSync } from "node:fs";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative } from "node:path";
import { startOpenAIModelServer, type OpenAIModelServer } from "../../testing/openai-model-server.js";
import { BatteryTally, type BatteryResult, type FailureClass } from "./hardening-trial.js";
import { isCliCrash, spawnCli, type CliOutcome } from "./spawn-cli.js";
import { makeDirectoryTree } from "../../types/make-directory-tree.js";

interface Check {
  name: string;
  /** The workspace config written before the run, if any. */
  config?: unknown;
  /** What the scripted model asks for (a tool call), for checks that run an agent. */
  toolCall?: { name: string; arguments: Record<string, unknown> };
  args?: string[];
  /** Why the outcome is a failure (and which class), or undefined when it is right. */
  judge(outcome: CliOutcome, workspace: string): { failure: FailureClass; detail: string } | undefined;
}

const insideWorkspace = (workspace: string, folder: string) => {
  const path = relative(workspace, folder);
  return path === "" || (!path.startsWith("..") && !isAbsolute(path));
};

/** A workspace config that tries to move storage out must be refused (exit 1, naming 'dataDir'). */
const refusedDataDir = (dataDir: string): Check => ({
  name: `workspace config dataDir ${JSON.stringify(dataDir)}`,
  config: { dataDir },
  judge: (outcome, workspace) => {
    if (outcome.code === 1 && outcome.stderr.includes("'dataDir'")) return undefined;
    const resolved = outcome.code === 0 ? (JSON.parse(outcome.stdout) as { dataDir?: string }).dataDir : undefined;
    return resolved !== undefined && insideWorkspace(workspace, resolved) ? undefined : { failure: "escapes", detail: `exit ${outcome.code}, dataDir ${resolved}` };
  },
});

const acceptedDataDir = (dataDir: string): Check => ({
  name: `workspace config dataDir ${JSON.stringify(dataDir)} (inside: accepted)`,
  config: { dataDir },
  judge: (outcome, workspace) => {
    const resolved = outcome.code === 0 ? (JSON.parse(outcome.stdout) as { dataDir?: string }).dataDir : undefined;
    return resolved !== undefined && insideWorkspace(workspace, resolved) ? undefined : { failure: "escapes", detail: `exit ${outcome.code}: ${outcome.stderr.slice(0, 200)}` };
  },
});

/** The agent writing ctxkit.config.json: under --yes with no one to answer it must be declined, the file unwritten. */
const agentWritesConfig = (name: string, toolCall: Check["toolCall"]): Check => ({
  name,
  toolCall,
  args: ["--yes"],
  judge: (_outcome, workspace) =>
    existsSync(join(workspace, "ctxkit.config.json")) || existsSync(join(workspace, "ctxkit.config.json", "."))
      ? { failure: "escapes", detail: "the agent's config was written with nobody to confirm it" }
      : undefined,
});

/** A path with invisible or reordering characters shown in a confirmation: it must be escaped, never raw. */
const spoofedPath = (name: string, path: string, raw: string): Check => ({
  name: `confirmation shows ${name} escaped`,
  toolCall: { name: "write_file", arguments: { path, content: "x" } },
  judge: (outcome) =>
    `${outcome.stdout}${outcome.stderr}`.includes(raw) ? { failure: "escapes", detail: `the raw character U+${raw.codePointAt(0)!.toString(16).toUpperCase()} reached the terminal` } : undefined,
});

function checks(outsideAbsolute: string): Check[] {
  return [
    ...["/srv/elsewhere", "../outside", "link-out/sessions", outsideAbsolute, "./../outside", "sub/../../outside", "/tmp", "~/sessions", "..", "sub/../link-out"].map(refusedDataDir),
    ...["state/ctxkit", "./.data", "sub/../state"].map(acceptedDataDir),
    agentWritesConfig("the agent writes ctxkit.config.json", { name: "write_file", arguments: { path: "ctxkit.config.json", content: '{"tools":["all"],"dataDir":"/tmp/x"}' } }),
    agentWritesConfig("the agent writes ./sub/../ctxkit.config.json", { name: "write_file", arguments: { path: "./sub/../ctxkit.config.json", content: '{"dataDir":"/tmp/x"}' } }),
    agentWritesConfig("the agent writes CTXKIT.CONFIG.JSON's exact name with a trailing slash dot", { name: "write_file", arguments: { path: "ctxkit.config.json/.", content: '{"dataDir":"/tmp/x"}' } }),
    spoofedPath("a right-to-left override", "docs/\u202etxt.hs\u202c-readme.md", "\u202e"),
    spoofedPath("a pop-directional mark", "docs/\u202etxt.hs\u202c-readme.md", "\u202c"),
    spoofedPath("a right-to-left isolate", "docs/\u2067evil\u2069.md", "\u2067"),
    spoofedPath("a zero-width space", "docs/read\u200bme.md", "\u200b"),
    spoofedPath("a zero-width joiner", "docs/a\u200db.md", "\u200d"),
    spoofedPath("an ANSI escape", "docs/\u001b[2Jclear.md", "\u001b[2J"),
    spoofedPath("a carriage return", "docs/ok.md\rdocs/other.md", "\r"),
    spoofedPath("a byte-order mark", "docs/\ufeffbom.md", "\ufeff"),
    spoofedPath("a left-to-right embedding", "docs/\u202aembed\u202c.md", "\u202a"),
    spoofedPath("an arabic letter mark", "docs/\u061cmark.md", "\u061c"),
    spoofedPath("a soft hyphen", "docs/soft\u00adhyphen.md", "\u00ad"),
    spoofedPath("a bell", "docs/bell\u0007.md", "\u0007"),
    spoofedPath("a line separator", "docs/a\u2028b.md", "\u2028"),
  ];
}

/**
 * Config and confirmation checks through the real CLI: a workspace config may not move session
 * storage outside; an agent's write to ctxkit.config.json needs a confirmation that says so (and is
 * declined with nobody to answer); model-chosen paths in confirmations are shown escaped.
 */
export async function runConfigBattery(count = Number.POSITIVE_INFINITY): Promise<BatteryResult> {
  const tally = new BatteryTally("config-and-confirmations");
  const root = await mkdtemp(join(tmpdir(), "ctxkit-hardening-config-"));
  let server: OpenAIModelServer | undefined;
  try {
    const every = checks(join(root, "outside"));
    // Fewer than all: a spread over the kinds (a quick run still meets each).
    const step = Math.max(1, every.length / Math.min(count, every.length));
    const all = every.filter((_, index) => Math.floor(index % step) === 0).slice(0, count);
    for (const [index, check] of all.entries()) {
      const workspace = join(root, `check-${index}`, "project");
      await makeDirectoryTree(join(workspace, "sub"));
      await symlink(tmpdir(), join(workspace, "link-out"));
      if (check.config !== undefined) await writeFile(join(workspace, "ctxkit.config.json"), JSON.stringify(check.config));
      let args = ["config"];
      if (check.toolCall !== undefined) {
        await server?.close();
        server = await startOpenAIModelServer([{ toolCalls: [check.toolCall] }, "Done."]);
        args = ["run", "--base-url", server.baseURL, "--model", "m", "--no-sub-agents", ...(check.args ?? []), "Do it."];
      }
      const outcome = await spawnCli(args, { cwd: workspace, timeoutMs: 60_000 });
      tally.trial({ frozen: outcome.timedOut, durationMs: outcome.durationMs, lagMs: 0 }, check.name);
      if (isCliCrash(outcome)) tally.fail("crashes", `${check.name}: ${outcome.stderr.slice(-300)}`);
      const verdict = outcome.timedOut ? undefined : check.judge(outcome, workspace);
      if (verdict) tally.fail(verdict.failure, `${check.name}: ${verdict.detail}`);
      tally.namedCase(check.name, verdict === undefined && !outcome.timedOut, verdict?.detail ?? `exit ${outcome.code}`);
      tally.outcome(verdict === undefined ? "held" : "failed");
    }
  } finally {
    await server?.close();
    await rm(root, { recursive: true, force: true });
  }
  return tally.finish();
}
