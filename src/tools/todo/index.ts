export { createTodoTools, formatTodoList } from "./create-todo-tools.js";
export { rewriteTodoListParameters, updateTodoStatusParameters } from "./todo-tool-schemas.js";
