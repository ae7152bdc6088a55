/**
 * Short texts written for these tests (not copied from any corpus), one per kind of content the
 * estimator was calibrated on.
 */
export const chineseSample = [
  "模型的接口是无状态的：每一次调用，Agent 都要重新组装整个请求。请求由三部分组成：稳定的前缀（系统提示词和工具定义）、",
  "只追加不修改的轨迹（用户消息、助手消息和工具结果），以及最后一条可以变化的状态消息。",
  "推理服务会复用相邻两次请求之间最长的公共 token 前缀，所以任何放进系统提示词的动态信息，比如当前时间、",
  "剩余预算或者用户余额，都会让缓存从那个位置开始失效，后面的几万个 token 需要重新计算。",
  "经验法则很简单：前缀保持逐字节不变，工具列表只在会话开始时排序一次，新发现的工具作为消息追加到轨迹末尾；",
  "压缩要少做、批量做，并且保留文件路径、URL、编号和哈希值原样不动。",
  "中文文本按字符数除以四来估算 token，会把实际用量低估一半左右，这在接近上下文窗口上限时尤其危险。",
].join("");

export const englishSample =
  "Prompt caches only reuse the longest common token prefix of consecutive requests. Everything the " +
  "harness sends is therefore arranged as a stable prefix, an append-only trajectory and a tail that " +
  "may change. A compaction is rare and batched, and it keeps identifiers such as paths, URLs and hashes verbatim.";

export const toolResultSample = JSON.stringify({
  reservation_id: "ZFA04Y",
  user_id: "mia_li_3668",
  origin: "JFK",
  destination: "SEA",
  flights: [
    { flight_number: "HAT136", date: "2024-05-20", price: 1269 },
    { flight_number: "HAT039", date: "2024-05-23", price: 1185 },
  ],
  passengers: [{ first_name: "Mia", last_name: "Li", dob: "1990-04-05" }],
  payment_history: [{ payment_id: "credit_card_4421486", amount: 2454 }],
  insurance: "no",
});

export const codeSample = [
  "def parse_header(line: str) -> tuple[str, str]:",
  '    """Split an HTTP header line into name and value."""',
  "    name, _, value = line.partition(':')",
  "    if not name:",
  "        raise ValueError(f'bad header: {line!r}')",
  "    return name.strip().lower(), value.strip()",
  "",
].join("\n");
