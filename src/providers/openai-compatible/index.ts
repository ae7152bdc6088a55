export { createOpenAICompatible } from "./create-openai-compatible.js";
export { createOpenAIEmbedder, parseEmbeddings, type OpenAIEmbedderOptions } from "./create-openai-embedder.js";
export type { OpenAICompatibleSettings } from "./openai-compatible-settings.js";
export {
  openAICompatibleVendors,
  vendorProfiles,
  type CachedTokensField,
  type OpenAICompatibleVendor,
  type ReasoningRoundTrip,
  type VendorProfile,
} from "./vendor-profiles.js";
export type { RetryOptions } from "../shared/fetch-with-retry.js";
