import { ConfigError } from "../types/errors.js";
import type { Provider, ProviderSpecificationVersion } from "./provider.js";

/** The provider contract version this ctxkit implements; every shipped provider sets it. */
export const providerSpecificationVersion: ProviderSpecificationVersion = "v1";

/**
 * Refuses a provider written for another version of the contract before any call is made, so a
 * third-party provider built against an older or newer ctxkit fails with a fix, not mid-run.
 */
export function checkProviderContract(provider: Provider): void {
  const version = (provider as { specificationVersion?: unknown }).specificationVersion;
  if (version === providerSpecificationVersion) return;
  const name = typeof provider.name === "string" ? `'${provider.name}'` : "The provider";
  const found = version === undefined ? "sets no specificationVersion" : `implements contract ${JSON.stringify(version)}`;
  throw new ConfigError(
    "provider_contract_unsupported",
    `Provider ${name} ${found}; this ctxkit implements provider contract "${providerSpecificationVersion}". ` +
      `Set specificationVersion: "${providerSpecificationVersion}" on a provider that implements stream() and serialize() as ctxkit's Provider type documents, ` +
      `or use the ctxkit version the provider was written for.`,
  );
}
