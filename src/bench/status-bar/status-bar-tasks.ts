import { callLimitTask } from "./call-limit-task.js";
import { missingFileTask } from "./missing-file-task.js";
import type { StatusBarTask } from "./status-bar-task.js";
import { timeOrderTask } from "./time-order-task.js";
import { todoFilesTask } from "./todo-files-task.js";

/** The live tasks of `ctxkit bench status-bar`, in report order. */
export const statusBarTasks: readonly StatusBarTask[] = [callLimitTask, todoFilesTask, missingFileTask, timeOrderTask];
