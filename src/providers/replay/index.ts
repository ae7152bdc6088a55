export { createReplayProvider, type RecordedAssistantMessage, type ReplayProviderOptions } from "./create-replay-provider.js";
