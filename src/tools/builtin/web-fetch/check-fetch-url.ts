import { ToolError } from "../../tool.js";

/** Names that reach this machine or a cloud metadata service whatever DNS answers for them. */
const loopbackNames = /(^|\.)localhost\.?$/i;
const metadataNames = /^(metadata|metadata\.google\.internal|metadata\.goog|instance-data|instance-data\.ec2\.internal)\.?$/i;

export interface CheckedUrl {
  url: URL;
  /** The host to resolve or connect to: a name, or an IP literal without IPv6 brackets. */
  host: string;
  /** Set when the name is a loopback name (`localhost`, `*.localhost`). */
  isLoopbackName: boolean;
}

/**
 * Parses a URL the model (or a redirect) gave and checks what can be checked before any lookup:
 * http or https only, no credentials, no metadata host names. The WHATWG parser turns IPv4
 * spellings such as `http://2130706433/` or `http://0x7f.1/` into `127.0.0.1`, so the address
 * check after it sees the real address.
 */
export function checkFetchUrl(text: string, base?: URL): CheckedUrl {
  let url: URL;
  try {
    url = base ? new URL(text, base) : new URL(text);
  } catch {
    throw new ToolError("invalid_arguments", `'${text}' is not a valid URL. Pass an absolute http(s) URL such as "https://example.com/page".`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ToolError("invalid_arguments", `web_fetch only fetches http and https URLs, not ${url.protocol.replace(/:$/, "")}: (${url.href}).`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new ToolError("invalid_arguments", `web_fetch does not send credentials written in a URL (${url.host}); fetch the page without them.`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (metadataNames.test(host)) {
    throw new ToolError("permission", `web_fetch refuses ${host}: it is a cloud metadata service, not a web page.`);
  }
  url.hash = "";
  return { url, host, isLoopbackName: loopbackNames.test(host) };
}
