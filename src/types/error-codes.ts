import type { ToolErrorKind } from "./tool.js";

/**
 * Every error code, grouped by the family class that carries it. A code names what the caller must
 * fix, so a program (or a person reading `error.code`) can act without parsing the message.
 */

/** Options, settings, files and installed packages the caller controls. Thrown before any I/O. */
export type ConfigErrorCode =
  /** An option or setting has a value no code path accepts (the message names the option and the allowed values). */
  | "option_invalid"
  /** A provider was created without a model name. */
  | "model_missing"
  /** No API key was passed and none is in the vendor's environment variable. */
  | "api_key_missing"
  /** Tool search's embedding server takes its key from a variable (`toolSearchEmbeddingsApiKeyEnv`) that is not set. */
  | "embeddings_api_key_missing"
  /** The request (extra body fields, thinking budget, temperature) is one the vendor would refuse. */
  | "request_invalid"
  /** A tool name that is not a known built-in tool. */
  | "tool_unknown"
  /** A pricing file or catalog entry is unreadable or malformed. */
  | "pricing_invalid"
  /** A model has no entry in the pricing catalog. */
  | "model_unpriced"
  /** A ctxkit config file is not valid JSON, has an unknown key, or sets a key it may not. */
  | "config_file_invalid"
  /** A chat template file is unreadable or not a valid Jinja template. */
  | "template_invalid"
  /** A valid chat template raised an error while rendering these messages. */
  | "template_render_failed"
  /** The named token counter does not exist. */
  | "tokenizer_unknown"
  /** The token counter cannot do what was asked (encoding needs an exact tokenizer). */
  | "tokenizer_unsupported"
  /** An optional package (a tokenizer, the template engine) is not installed; the message gives the npm command. */
  | "dependency_missing"
  /** No recorded runs where a benchmark expected them. */
  | "corpus_missing"
  /** A provider says it implements another version of the provider contract (`specificationVersion`) than this ctxkit. */
  | "provider_contract_unsupported"
  /** A command line the CLI cannot parse (unknown flag, missing argument, a value a flag does not take): exit code 2. */
  | "usage_invalid"
  /** `ctxkit view` was asked to listen on an address other than loopback. */
  | "view_address_refused"
  /** The view server's port is taken by another program (EADDRINUSE). */
  | "port_in_use"
  /** The view server's port may not be opened by this user (EACCES: below 1024 on most systems). */
  | "port_not_permitted";

/** A model provider failed after the request was built. Arrives as a terminal `error` event, never thrown mid-stream. */
export type ProviderErrorCode =
  | "provider_http_error"
  | "provider_connection_error"
  /** No first byte, or no stream data, within the provider's time limit (retryable; the message names the limit). */
  | "provider_timeout"
  | "provider_response_invalid"
  /** One server-sent event was larger than the parser's cap (`maxEventCharacters`); the stream is refused to bound memory. */
  | "provider_event_too_large"
  | "context_overflow"
  /** The embedded engine (node-llama-cpp) is not installed or could not load the model; the message says how to fix it. */
  | "engine_unavailable"
  /** An embedding model (tool search's `embeddings`) failed, timed out or answered with vectors that cannot be used. */
  | "embedding_failed"
  | "aborted";

/** Session files, the blob store and stored requests. */
export type SessionErrorCode =
  | "session_corrupt"
  | "session_version_unsupported"
  | "session_not_found"
  | "session_exists"
  | "session_id_invalid"
  | "session_id_exhausted"
  | "session_changed_on_disk"
  | "session_record_invalid"
  | "session_write_refused"
  | "session_prefix_mismatch"
  | "request_not_found"
  | "blob_store_unwritable"
  /** The loader found duplicated lines or stray records; resume only with `repair: true`. */
  | "session_needs_repair"
  | "session_repair_failed"
  /** A rebuilt request serialises to other bytes than the hash recorded when it was sent. */
  | "session_body_mismatch"
  /** Another writer (process or worker) has the session open; one writer per session. */
  | "session_locked"
  /** A database store lost its connection (and with it the session's lock) while writing. */
  | "session_lock_lost"
  /** A stored session is larger than the store will read back (`maxSessionBytes`). */
  | "session_too_large"
  /** The session database could not be reached, or answered with an error. */
  | "session_database_error"
  /** The database was made by a newer ctxkit (a schema version this one does not know). */
  | "session_schema_unsupported"
  /** A durable run, re-executed after a crash, wrote other records than its first attempt stored. */
  | "session_replay_diverged";

/** A tool's definition (name, schema) is one no provider accepts. */
export type ToolDefinitionErrorCode = "tool_definition_invalid";

/** A context policy (the prefix guard, compression, a `prepareContext`) failed or returned something invalid. */
export type ContextErrorCode = "prefix_break" | "compaction_failed" | "summarizer_failed" | "context_edit_invalid" | "external_content_outside_tool";

/**
 * A tool's failure of a known kind (`ToolError`): `tool_` and its `ToolErrorKind`, so a program can
 * switch on it like on any other code: `tool_not_found` (what the call names does not exist),
 * `tool_permission` (outside the workspace, or the system refused), `tool_timeout`,
 * `tool_invalid_arguments`, `tool_unknown_tool`, `tool_rejected` (a person or a policy said no),
 * `tool_failed`.
 * Lower case: never one of Node's error codes (`ENOENT`, `ERR_…`).
 */
export type ToolErrorCode = `tool_${ToolErrorKind}`;

/** A recorded transcript or tools file could not be read. */
export type TranscriptErrorCode = "transcript_invalid";

/** The API was called in a way it does not support (two runs at once, a run handle read twice). */
export type UsageErrorCode = "agent_busy" | "run_consumed" | "run_abandoned" | "run_input_invalid" | "server_compaction_unsupported";

export type CtxkitErrorCode =
  | ConfigErrorCode
  | ProviderErrorCode
  | SessionErrorCode
  | ToolDefinitionErrorCode
  | ToolErrorCode
  | ContextErrorCode
  | TranscriptErrorCode
  | UsageErrorCode;
