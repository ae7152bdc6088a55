/** The options `run`, `chat` and `config` share: how the model, the workspace and the session are chosen. */
export const agentOptionsHelp = `Model:
  --provider <openai-compatible|openai-responses|anthropic|llama>   model API (default
                            openai-compatible); openai-responses is OpenAI's Responses API (stateless,
                            encrypted reasoning sent back); llama is the embedded llama.cpp engine
                            (optional package node-llama-cpp)
  --vendor <openai|vllm|ollama|llamacpp|deepseek|kimi|glm|openrouter>
  --base-url <url>          API base URL (e.g. http://127.0.0.1:11434/v1 for Ollama)
  --model <name>            model name (required, except with --provider llama)
  --model-path <file.gguf>  llama: the GGUF model file (or CTXKIT_MODEL_PATH)
  --api-key <key>           API key (default from CTXKIT_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY, …)
  --temperature <t>         sampling temperature (default: the server's)
  --max-output-tokens <n>   longest reply per call (default: the server's; 8192 for Anthropic)
  --context-window <tokens> the model's context window (compression starts at 80% of it; default 128000)
  --request-timeout <s>     seconds to wait for a response to start, per attempt (default 60; 0 = off)
  --idle-timeout <s>        seconds of silence allowed mid-stream (default 60; 0 = off)
  --cache-ttl <5m|1h>       Anthropic prompt-cache lifetime (default 5m; 1h writes cost 2× input)
  --cache-key <key>         prompt-cache routing key: OpenAI's prompt_cache_key, x-session-affinity
                            for other OpenAI-compatible servers (default: the session id)

Workspace and session:
  --workspace <dir>         existing directory the tools work in (default: current directory)
  --session <id>            resume a stored session
  --continue, -c            resume the latest session of the workspace
  --repair                  resume a session with duplicated, stray or out-of-order lines: rewritten
                            without the duplicates, in order
                            (the original is kept beside it as <file>.before-repair)
  --data-dir <dir>          where sessions are stored (default <workspace>/.ctxkit)
  --system <text|@file>     the system prompt (default: ctxkit's coding-agent prompt)
  --no-project-instructions do not read AGENTS.md / CLAUDE.md from the workspace and its parents
  --log-requests <file>     append every request body as JSON lines (API keys masked), for debugging

Tools and context:
  --tools <list>            comma-separated built-in tools; 'default' = all but bash, 'all' adds bash
                            (web_fetch reads web pages: http(s) only, no private network addresses)
  --allow-loopback-fetch    let web_fetch read pages on this machine (localhost, 127.0.0.1); off by default
  --yes, -y                 approve every confirmation (writes, bash), except calls whose arguments
                            carry material that came only from external content (always asked;
                            refused without a terminal)
  --trust-workspace         the workspace's files are yours: show tool results from them as they
                            are (default: tagged as untrusted data, like web pages)
  --max-iterations <n>      model calls per task before stopping (default 50)
  --skills <dir>            a folder of skills (<dir>/<name>/SKILL.md, relative to the workspace like
                            --data-dir); repeatable, searched before <workspace>/.ctxkit/skills,
                            .agents/skills, .claude/skills, ~/.config/ctxkit/skills
  --mcp-config <file>       MCP servers to connect, {"mcpServers": {"name": {"command", "args", "env"}
                            | {"url", "headers"}}} as Claude Code and Cursor write it; repeatable, added
                            to "mcpServers" of ~/.config/ctxkit/config.json (a workspace's
                            ctxkit.config.json may name only "url" servers). Their tools are named
                            mcp__<server>__<tool>; calls ask first unless the server marks them read-only
  --defer-tools <auto|all|off>
                            keep tools out of the tool list the model is sent and let it find them
                            with tool_search (called through call_tool): auto when their
                            definitions would take over 10% of the context window, all always,
                            off (default) never
  --compression <policy>    ctxkit (default: layered), none, individual, combined, context-aware,
                            context-aware-citations, windowed
  --status-bar <auto|replace|append|off>
                            how the <agent_status> message (goal, TODO list, call counts, time) is
                            sent: replaced on every call, or appended and kept; auto picks the one
                            that costs less with the model's cache pricing
  --no-timestamps --no-counter --no-todo --no-errors --no-state
                            switch off a part of the status bar (times, call counts, TODO list,
                            detailed errors, system state)
  --notes <session|workspace|off>
                            notes the agent keeps outside the context (notes_read, notes_write):
                            in the session's data folder (default), in NOTES.md of the workspace,
                            or none; they survive compaction and the status shows their size
  --no-sub-agents           no task tool: the agent cannot hand searches to the read-only explore
                            sub-agent or fork a copy of itself (both on by default)
  --no-color                plain output (colour also follows NO_COLOR and FORCE_COLOR)

Budget (for the whole session, including what a resumed session already spent):
  --budget-tokens <n>       most tokens (prompt, cached included, plus output) the session may use
  --budget-cost <usd>       most US dollars, priced with the pricing catalog
  --budget-mode <hard|soft|approval>
                            at the limit: stop the task before the call (hard, default), warn and
                            go on (soft), or ask (approval; without a terminal the answer is no).
                            Calls slow down from 80% of a limit; --max-output-tokens sets how much
                            output each call reserves (default 4096)
`;
