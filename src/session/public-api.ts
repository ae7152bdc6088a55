// `ctxkit/session`: session records and files, the blob store, pricing, prompt-cache rules and the
// usage ledger.
export * from "./index.js";
export { createFileBlobStore } from "./blob-store.js";
export * from "./pricing.js";
export * from "./cache-rules.js";
export * from "./usage-ledger.js";
export { loadPricingSelection, selectPricing, type NamedPricing, type PricingSelection } from "./load-pricing.js";
