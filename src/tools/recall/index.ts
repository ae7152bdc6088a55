export { createRecallTool, type RecallArgs, type RecallToolOptions } from "../../context/compression/recall-tool.js";
