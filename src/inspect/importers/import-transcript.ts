import { TranscriptError } from "../../types/index.js";
import { TRANSCRIPT_FORMATS, type ImportResult, type TranscriptFormat } from "../imported-transcript.js";
import { importClaudeCode } from "./import-claude-code.js";
import { importCodexRollout } from "./import-codex-rollout.js";
import { importCtxkitSession } from "./import-ctxkit-session.js";
import { importMiniSweAgent } from "./import-mini-swe-agent.js";
import { importOpenAILog } from "./import-openai-log.js";
import { importAiderLlmHistory } from "./import-aider-llm-history.js";
import { importGeminiCli } from "./import-gemini-cli.js";
import { importOpenHands } from "./import-openhands.js";
import { importSweAgent } from "./import-swe-agent.js";
import { importTau2Bench } from "./import-tau2-bench.js";
import { importTauBench } from "./import-tau-bench.js";

/** Every importer is a pure function of (file text, file name). */
export type TranscriptImporter = (text: string, file: string) => ImportResult;

export const transcriptImporters: Readonly<Record<TranscriptFormat, TranscriptImporter>> = {
  ctxkit: importCtxkitSession,
  "openai-log": importOpenAILog,
  "claude-code": importClaudeCode,
  codex: importCodexRollout,
  "mini-swe-agent": importMiniSweAgent,
  "tau-bench": importTauBench,
  "swe-agent": importSweAgent,
  openhands: importOpenHands,
  "gemini-cli": importGeminiCli,
  aider: importAiderLlmHistory,
  "tau2-bench": importTau2Bench,
};

/**
 * Imports one file's text in the given format (`detectTranscriptFormat(file, text)` tells it). The text
 * is already decoded, so invalid UTF-8 can no longer be told from a U+FFFD the file held:
 * `importTranscriptFiles` reads the bytes and notes where a file stops being valid UTF-8.
 */
export function importTranscript(text: string, file: string, format: TranscriptFormat): ImportResult {
  // From plain JavaScript an unknown name ("auto" too) was "transcriptImporters[format] is not a function".
  if (!Object.hasOwn(transcriptImporters, format)) {
    throw new TranscriptError(`Unknown transcript format ${JSON.stringify(format)}. Use one of: ${TRANSCRIPT_FORMATS.join(", ")}; detectTranscriptFormat(file, text) tells a file's.`);
  }
  return transcriptImporters[format](text, file);
}
