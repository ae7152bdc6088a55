export { buildLargeTrajectory, type LargeTrajectoryOptions } from "./large-trajectory.js";
export { formatViewPerformance, medianTiming } from "./format-view-performance.js";
export { measureViewPerformance, type ViewTiming } from "./measure-view-performance.js";
