// The web_fetch tool and the checks it is built from (for library users who fetch on their own).
export { createWebFetchTool, type WebFetchArgs, type WebFetchToolOptions } from "./web-fetch-tool.js";
export { findBlockedAddressReason, type AddressPolicy } from "./blocked-address.js";
export { systemHostResolver, type HostResolver, type ResolvedAddress } from "./host-resolver.js";
export { convertHtmlToMarkdown, type PageMarkdown } from "./html-to-markdown.js";
