/** Top-level domains that make "name.tld" a web address rather than a file name ("google.com", "notes.txt"). */
const webDomains = new Set(["com", "org", "net", "io", "dev", "app", "ai", "co", "edu", "gov", "info", "me", "uk", "de", "fr"]);

/** Most hints read from one query (a pasted document could hold thousands of file names). */
const maxHints = 8;

/**
 * Words a query implies without saying them: a web address ("https://example.com",
 * "google.com") asks for a tool that takes a URL, a file name ("notes.txt", "src/config.yml")
 * for one that works on files. People name the thing, not its kind: "print contents of
 * notes.txt" never says "file".
 */
export function queryHintWords(query: string): Array<"url" | "file"> {
  const hints: Array<"url" | "file"> = [];
  for (const token of query.split(/\s+/)) {
    if (hints.length >= maxHints) break;
    const word = token.replace(/^["'`(<[]+|["'`)>\],;:!?]+$/g, "").replace(/\.$/, "");
    if (word.length > 200) continue;
    if (/^(https?:\/\/|www\.)/i.test(word)) {
      hints.push("url");
      continue;
    }
    // An ending of two letters or more: "e.g." is not a file.
    const dotted = /^[\w-]+(?:[./][\w-]+)*\.([a-z][a-z0-9]{1,4})(\/\S*)?$/i.exec(word);
    if (dotted === null) continue;
    const webAddress = dotted[2] !== undefined || (webDomains.has(dotted[1]!.toLowerCase()) && !word.includes("/"));
    hints.push(webAddress ? "url" : "file");
  }
  return [...new Set(hints)];
}

/**
 * The query without the parts of web addresses that say nothing of the tool wanted: the scheme,
 * "www" and the top-level domain ("open https://www.github.com/x" → "open  github/x"). The
 * address itself is hinted by `queryHintWords`; left in, "https" and "com" match any tool whose
 * description happens to show an example address.
 */
export function withoutAddressNoise(query: string): string {
  return query
    .replace(/\b(?:https?:\/\/|www\.)/gi, " ")
    .replace(/\b([\w-]+)\.([a-z]{2,4})\b(?![.\w-])/gi, (match, host: string, domain: string) => (webDomains.has(domain.toLowerCase()) ? host : match));
}
