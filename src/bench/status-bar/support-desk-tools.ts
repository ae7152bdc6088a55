import { createHash } from "node:crypto";
import { defineTool, ToolError, type Tool } from "../../tools/tool.js";

/**
 * The tools of the seed's experiment 2-8 scenario (a support agent chasing a refund): phone calls to
 * companies, web search and an account lookup that fails for malformed ids. Deterministic outputs, so
 * scripted runs and their requests are reproducible.
 */
export function createSupportDeskTools(): Tool[] {
  const phoneCall = defineTool<{ company: string; purpose: string }>({
    name: "phone_call",
    description: "Phone a company's customer support line and return the call log.",
    parameters: {
      type: "object",
      properties: { company: { type: "string", description: "The company to call, e.g. \"Xfinity\"." }, purpose: { type: "string", description: "What the call is about." } },
      required: ["company", "purpose"],
      additionalProperties: false,
    },
    async execute({ company, purpose }) {
      return `Call log: spoke with ${company} support about "${purpose}". They said the refund request is being processed. Ticket ${ticket(company + purpose)}.`;
    },
  });
  const webSearch = defineTool<{ query: string }>({
    name: "web_search",
    description: "Search the web; returns the top result's title and snippet.",
    parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"], additionalProperties: false },
    parallelSafe: true,
    async execute({ query }) {
      return `Top result for "${query}": Consumer guide — refunds for cancelled internet plans usually take 5 to 10 business days.`;
    },
  });
  const lookupAccount = defineTool<{ account_id: string }>({
    name: "lookup_account",
    description: 'Look up a customer account by id (ids look like "ACC-123").',
    parameters: { type: "object", properties: { account_id: { type: "string" } }, required: ["account_id"], additionalProperties: false },
    parallelSafe: true,
    async execute({ account_id: accountId }) {
      if (!/^ACC-\d+$/.test(accountId)) throw new ToolError("not_found", `No account with id "${accountId}".`);
      return JSON.stringify({ account_id: accountId, plan: "Internet 300", status: "cancelled", refund: "pending" });
    },
  });
  return [phoneCall, webSearch, lookupAccount] as unknown as Tool[];
}

function ticket(seed: string): string {
  return `#${createHash("sha1").update(seed).digest("hex").slice(0, 6)}`;
}
