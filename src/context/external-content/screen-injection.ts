/** One kind of injection phrase found in a result (never the text itself: that stays in the result). */
export interface ScreeningFinding {
  rule: ScreeningRule;
  language: string;
}

export type ScreeningRule =
  | "ignore-previous-instructions"
  | "reveal-system-prompt"
  | "role-override"
  | "addressed-to-assistant"
  | "exfiltrate"
  | "conceal-from-user";

interface PhraseRule {
  rule: ScreeningRule;
  language: string;
  pattern: RegExp;
}

// Common phrasings of injections in public corpora (BIPIA, InjecAgent, AgentDojo, garak's
// PromptInject probes, LLMail-Inject, the seed's examples). A variant in other words passes: this is
// a hint for the model and the person, never the defence (the seed says the same).
const rules: PhraseRule[] = [
  { rule: "ignore-previous-instructions", language: "en", pattern: /\b(?:ignore|disregard|forget|override|bypass|skip)\b.{0,40}?\b(?:previous|prior|above|earlier|preceding|all|any|your|the|other)\b.{0,30}?\b(?:instructions?|directions?|prompts?|rules|guidelines|directives?)\b/ },
  { rule: "ignore-previous-instructions", language: "en", pattern: /\b(?:new|updated|revised|important|additional|real) (?:instructions?|task|directives?)\s*[:!]/ },
  { rule: "reveal-system-prompt", language: "en", pattern: /\b(?:print|reveal|show|output|repeat|display|leak|tell me|give me|write out|what (?:is|was) written)\b.{0,40}?\b(?:system prompt|initial prompt|original prompt|your prompt|your (?:initial |hidden |secret )?instructions|the (?:text|document|instructions) above|beginning of the document)\b/ },
  { rule: "role-override", language: "en", pattern: /\byou are now\b|\bdeveloper mode\b|\bdan mode\b|\bjailbr(?:eak|oken)\b|\bunrestricted ai\b|\(#(?:error_state|additional_instructions)\)|^\s*#+\s*\(?system[_ ]message\)?/m },
  { rule: "addressed-to-assistant", language: "en", pattern: /\b(?:message (?:from me, [^,]{1,40}, )?to you|dear (?:ai|assistant|agent|language model|llm)|attention (?:ai|assistant|agent|llm)|note to (?:the )?(?:ai|assistant|agent))\b|\bbefore (?:you )?(?:summari[sz]ing|answering|responding|replying|you can solve|continuing|doing anything else)\b|\bafter (?:summari[sz]ing|summari[sz]e|you summari[sz]e)\b/ },
  { rule: "exfiltrate", language: "en", pattern: /\b(?:send|forward|e-?mail|upload|post|transfer|exfiltrate|copy|cc)\b.{0,80}?\b(?:to|at)\b\s*[\w.+-]+@[\w-]+\.[\w.-]+|\bsave (?:the |this |our |my )?(?:conversation|chat|dialog(?:ue)?|history)\b/ },
  { rule: "conceal-from-user", language: "en", pattern: /\b(?:do not|don't|never) (?:tell|inform|mention|notify|alert|show)\b.{0,20}?\b(?:the )?user\b|\bwithout (?:telling|informing|asking) the user\b/ },
  { rule: "ignore-previous-instructions", language: "zh", pattern: /(?:忽略|无视|忽视|忘记|忘掉|不要理会|跳过)[^。\n]{0,12}?(?:之前|以前|上面|上述|先前|所有|全部|一切|前面)?[^。\n]{0,8}?(?:指令|指示|说明|提示|规则|要求|设定)/ },
  { rule: "reveal-system-prompt", language: "zh", pattern: /(?:输出|打印|显示|泄露|告诉我|重复|给出)[^。\n]{0,12}?(?:系统提示|提示词|系统指令|初始指令|原始指令)|(?:系统提示|提示词|系统指令|初始指令)[^。\n]{0,12}?(?:输出|打印|显示|告诉|发给|泄露)/ },
  { rule: "role-override", language: "zh", pattern: /(?:你现在是|从现在开始你是|开发者模式)/ },
  { rule: "addressed-to-assistant", language: "zh", pattern: /(?:在总结之前|总结之前|回答之前|在回答前|请先|下次处理)/ },
  { rule: "exfiltrate", language: "zh", pattern: /(?:发送|转发|发到|抄送|上传|保存)[^。\n]{0,40}?(?:@|对话历史|聊天记录|对话记录)|(?:对话历史|聊天记录|对话记录)[^。\n]{0,10}?(?:保存|发送|转发|上传|发到)/ },
  { rule: "ignore-previous-instructions", language: "ja", pattern: /(?:以前|前|上記|これまで)の(?:指示|命令|指令|プロンプト)を(?:無視|忘れ)/ },
  { rule: "reveal-system-prompt", language: "ja", pattern: /システムプロンプトを(?:表示|出力|教え)/ },
  { rule: "ignore-previous-instructions", language: "ko", pattern: /(?:이전|위의|모든|앞의)\s*(?:지시|명령|지침|지시사항)(?:을|를)?\s*(?:무시|잊)/ },
  { rule: "ignore-previous-instructions", language: "de", pattern: /\b(?:ignoriere|ignorieren sie|vergiss|vergessen sie|missachte)\b.{0,40}?\b(?:anweisungen|befehle|vorherigen|vorgaben|alles)\b/ },
  { rule: "ignore-previous-instructions", language: "fr", pattern: /\b(?:ignore[rz]?|oublie[rz]?)\b.{0,40}?\b(?:instructions|consignes|précédentes)\b/ },
  { rule: "ignore-previous-instructions", language: "es", pattern: /\b(?:ignora|olvida|omite)\b.{0,40}?\b(?:instrucciones|anteriores|indicaciones)\b/ },
  { rule: "ignore-previous-instructions", language: "pt", pattern: /\b(?:ignore|esqueça|desconsidere)\b.{0,40}?\b(?:instruções|anteriores)\b/ },
  { rule: "ignore-previous-instructions", language: "ru", pattern: /(?:игнорируй|игнорировать|забудь|проигнорируй)[^.\n]{0,40}?(?:инструкции|указания|предыдущие)/ },
];

// Invisible characters between letters ("ig\u200bnore") must not hide a phrase.
const invisible = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;

/**
 * Flags known injection phrasings in text from outside (English, Chinese, Japanese, Korean, German,
 * French, Spanish, Portuguese, Russian). A hint recorded with the result and shown in the status bar
 * — not a defence on its own: rewording passes it.
 */
export function screenInjection(text: string): ScreeningFinding[] {
  const normalised = text.normalize("NFKC").replace(invisible, "").toLowerCase().replace(/\s+/g, " ");
  const findings: ScreeningFinding[] = [];
  for (const { rule, language, pattern } of rules) {
    if (findings.some((finding) => finding.rule === rule && finding.language === language)) continue;
    if (pattern.test(normalised)) findings.push({ rule, language });
  }
  return findings;
}
