import { createScriptedProvider, type ScriptedProvider } from "../../../providers/scripted/index.js";
import { defineTool, type Tool } from "../../../tools/tool.js";
import { ContextOverflowError, type ModelRequest } from "../../../types/index.js";

/** Facts the research task must keep: each appears on one page, among filler and navigation. */
export const researchFacts = [
  "Ilya Sutskever left OpenAI in May 2024 and founded Safe Superintelligence (SSI) in June 2024.",
  "Greg Brockman took a leave of absence from OpenAI in August 2024 and returned in November 2024.",
  "John Schulman joined Anthropic in August 2024 and left for Thinking Machines Lab in February 2025.",
  "Andrej Karpathy left OpenAI in February 2024 and founded Eureka Labs in July 2024.",
  "Wojciech Zaremba remains at OpenAI as of 2025, leading the Codex effort.",
  "Sam Altman returned as CEO of OpenAI on 2023-11-22 after being removed on 2023-11-17.",
  "Elon Musk left the OpenAI board in February 2018; xAI was founded in March 2023.",
];

export const researchUrls = researchFacts.map((_, index) => `https://news.example.com/openai/founders/page-${index + 1}.html`);

/** A long, deterministic web page: navigation, filler paragraphs, one fact, repeated boilerplate. */
export function researchPage(index: number, chars = 24_000): string {
  const lines = ["Home | News | Tech | Business | Subscribe | Sign in", `# OpenAI co-founders, part ${index + 1}`];
  let paragraph = 0;
  while (lines.join("\n").length < chars) {
    paragraph += 1;
    if (paragraph === 7) lines.push(researchFacts[index]!);
    lines.push(
      `Paragraph ${paragraph}. Industry observers continued to debate the direction of artificial intelligence research ` +
        `while analysts wrote long commentary about markets, funding rounds and the general mood in the valley. ` +
        `Nothing in this paragraph is specific; it is the kind of filler that fills a news page number ${index + 1}.`,
    );
    if (paragraph % 5 === 0) lines.push("Advertisement", "Related: ten gadgets you need this summer");
  }
  lines.push("© 2025 Example News. All rights reserved. Privacy | Terms | Cookies");
  return lines.join("\n");
}

export const fetchTool: Tool<{ url: string }> = defineTool<{ url: string }>({
  name: "fetch",
  description: "Fetch a web page and return its text.",
  parameters: { type: "object", properties: { url: { type: "string" } }, required: ["url"], additionalProperties: false },
  parallelSafe: true,
  async execute({ url }) {
    const index = researchUrls.indexOf(url);
    if (index === -1) throw new Error(`404 Not Found: ${url}`);
    return researchPage(index);
  },
});

/** Approximate prompt tokens of a request, the way the scripted provider counts them (4 chars a token). */
export function requestTokens(provider: ScriptedProvider, request: ModelRequest): number {
  return Math.ceil(provider.serialize(request).body.length / 4);
}

/**
 * A scripted model doing the seed's research task: it fetches the pages one or two per turn, then
 * answers. The provider refuses a request over `window` tokens with a context-overflow error, as a
 * real one would.
 */
export function createResearchModel(window: number): ScriptedProvider & { peakTokens: () => number } {
  let peak = 0;
  let step = 0;
  const plan: string[][] = [[researchUrls[0]!], [researchUrls[1]!, researchUrls[2]!], [researchUrls[3]!], [researchUrls[4]!, researchUrls[5]!], [researchUrls[6]!]];
  const provider: ScriptedProvider = createScriptedProvider({
    turns: (request) => {
      const tokens = Math.ceil(provider.serialize(request).body.length / 4);
      if (tokens > window) return { error: new ContextOverflowError(`This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens.`) };
      peak = Math.max(peak, tokens);
      // The script advances per answered call, not per message in the context: compaction removes messages.
      const urls = plan[step++];
      if (urls === undefined) return "The co-founders' status: see the facts gathered above.";
      return { text: `I will fetch ${urls.length} more page(s).`, toolCalls: urls.map((url) => ({ name: "fetch", arguments: { url } })) };
    },
  });
  return Object.assign(provider, { peakTokens: () => peak });
}
