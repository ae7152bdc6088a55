import type { CtxkitError } from "../types/index.js";

/**
 * The library's errors advise a program (`apiKey` settings, constructor options); a person at the
 * CLI needs flags and variables instead. This rewrites the advice of the codes whose fix differs,
 * keeping the library's explanation of what went wrong.
 */
export function toCliMessage(error: { code: CtxkitError["code"] | (string & {}); message: string }): string {
  const message = error.message;
  switch (error.code) {
    case "api_key_missing": {
      const variables = /Set the (.+?) environment variable/.exec(message)?.[1];
      const what = message.split(". ", 1)[0] ?? message;
      return `${what.replace(/\.$/, "")}. Pass --api-key <key>, or set ${variables ? `${variables} or ` : ""}CTXKIT_API_KEY.`;
    }
    case "provider_http_error":
      return message.replace(/ Check the API key \([^)]*\)\./, " Check the API key (--api-key, CTXKIT_API_KEY or the provider's variable).");
    case "output_truncated":
      // The loop's warning names the agent option; at the command line it is the flag.
      return message.replace(/\b(raise|Raise) maxOutputTokens\b/g, "$1 --max-output-tokens");
    case "provider_response_invalid":
    case "provider_connection_error":
      return message.replace(/\bthe `baseURL` setting\b/g, "--base-url");
    case "session_not_found":
      return message
        .replace(/ \(list\(\) shows the sessions it holds\)\./, " (--data-dir); see 'ctxkit sessions list'.")
        .replace(/; a durable client's list\(\) shows the runs it holds\./, "; see 'ctxkit runs list'.");
    case "run_timeout":
      // A durable run's deadline (runTimeoutMessage).
      return message.replace(/within its timeoutMs of \d+ \((.+?) s\) after a worker started it; submit it with a longer timeoutMs\./, "within its --timeout of $1 s after a worker started it; give it a longer --timeout.");
    case "workflow_ended":
      // A durable run DBOS ended without a result (workflowEndedMessage).
      return message.replace(/then call resume\("(.+?)"\) on a durable client if it was cancelled\./, "then 'ctxkit runs resume $1' if it was cancelled.");
    case "option_invalid":
      // The settings' keys (createAgentFromConfig's words) become the flags that set them.
      return message
        .replace(/\bPass modelPath:/g, "Pass --model-path:")
        .replace(/\bSet modelPath to a \.gguf file\./g, "Pass --model-path <file.gguf> or set CTXKIT_MODEL_PATH.")
        .replace(/^compactThreshold must be at least (\d+) with provider "anthropic"/, "--compact-threshold must be at least $1 with --provider anthropic")
        .replace(/^The `system` setting (@.*): cannot read (.*)\. Give "@" and a readable file's path, or the prompt's text itself\.$/, "--system $1: cannot read $2. Give @ and a readable file's path, or the prompt's text itself.");
    case "model_missing":
      // createAgentFromConfig's advice (settings keys) as the flag and variable that set the model.
      return message.replace(
        /^No model is set\. Set model in the settings \(e\.g\. \{ model: "(.+?)" \} for Ollama\), or add "model" to ctxkit\.config\.json\.$/,
        'No model is set. Pass --model <name> (e.g. --model $1 for Ollama), set CTXKIT_MODEL, or add "model" to ctxkit.config.json.',
      );
    case "model_unpriced":
      // checkBudgetPricing's advice (settings keys, a library function) as flags. No flag sets a price for a
      // run: its prices come from the catalog alone, so the way out is a token limit or a listed model.
      return message.replace(
        /^budgetCost needs prices for the model '(.+)', which the pricing catalog does not list\. Use budgetTokens instead, or a model the catalog lists \(findModelPricing\(model\) finds its prices\)\.$/,
        "--budget-cost needs prices for the model '$1', which the pricing catalog does not list, and no flag sets a model's prices. Use --budget-tokens instead, or a --model the catalog lists (e.g. gpt-4.1).",
      );
    case "dependency_missing":
      return message.replace(/ Or count with createEstimatedTokenCounter\(\), which needs no package\./, " Or pass --tokenizer estimate, which needs no package.");
    case "session_write_refused":
      // A durable run paused for a person (DurableClient.resume's decision).
      return message.replace(/pass resume a decision: "rerun" runs it, "skip" tells the model it was not run\./, "say whether to run it (--approve) or not (--decline).");
    case "session_locked": {
      // A JSONL session's lock (lockSessionFile): the other writer is a ctxkit command, not a session object,
      // and the lock is removed with 'ctxkit sessions unlock', which refuses a lock whose writer runs here.
      const id = /^Session (\S+) \(/.exec(message)?.[1] ?? "<id>";
      return message
        // A cancelled durable run whose execution has not stopped yet (cancelledNotStoppedMessage).
        .replace(/call resume\("(.+?)"\) on a durable client again in a few seconds\.$/, "run 'ctxkit runs resume $1' again in a few seconds.")
        .replace(/ Close that writer first \(session\.close\(\)\)\./, " Let the other ctxkit run or chat on this session finish first.")
        .replace(
          / If no ctxkit writer uses this session any more \(the lock outlived a crash\), delete (\S+) and open the session again; unlockSessionFile\(.*\) from ctxkit deletes it, and keeps a lock whose writer runs on this host\.$/,
          ` If none is running any more (the lock outlived a crash, or its host is gone), run 'ctxkit sessions unlock ${id}' (it deletes $1; give it the same --workspace or --data-dir) and run the command again.`,
        );
    }
    case "budget_exceeded":
      // A shared budget's refusal on a worker (sharedBudgetRefusal).
      return message.replace(
        /Raise its limit \(defineBudget\("(.+?)", <limitTokens>, <maxCallTokens>\) on a durable client\), or submit the run with another budgetScope\./,
        "Raise its limit (ctxkit submit --budget-scope $1 --budget-tokens <n>), or submit with another --budget-scope.",
      );
    default:
      return message;
  }
}
