import { todoStatuses } from "./todo-list.js";
import type { JsonSchema } from "../../types/index.js";

const status = { type: "string", enum: [...todoStatuses], description: "pending, in_progress (the one step you are doing now), completed, or cancelled (no longer needed or impossible)." };

export const rewriteTodoListParameters: JsonSchema = {
  type: "object",
  properties: {
    items: {
      type: "array",
      description: "The whole new list, in the order the steps should be done.",
      items: {
        type: "object",
        properties: {
          id: { type: "string", description: 'Short unique id such as "1", "2"; keep the ids of items you carry over.' },
          content: { type: "string", description: "The step, as one imperative sentence." },
          status,
        },
        required: ["id", "content", "status"],
        additionalProperties: false,
      },
    },
  },
  required: ["items"],
  additionalProperties: false,
};

export const updateTodoStatusParameters: JsonSchema = {
  type: "object",
  properties: {
    updates: {
      type: "array",
      minItems: 1,
      description: "Status changes, applied in order.",
      items: {
        type: "object",
        properties: { id: { type: "string", description: "The id of an existing item." }, status },
        required: ["id", "status"],
        additionalProperties: false,
      },
    },
  },
  required: ["updates"],
  additionalProperties: false,
};
