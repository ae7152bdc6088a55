export { createTodoTools, formatTodoList } from "../../context/status-bar/create-todo-tools.js";
export { rewriteTodoListParameters, updateTodoStatusParameters } from "../../context/status-bar/todo-tool-schemas.js";
