/**
 * τ-bench's pass^k: for each task, the chance that k trials drawn from its n all succeed,
 * C(successes, k) / C(n, k), averaged over tasks. pass^1 is the plain success rate.
 */
export function passHatK(successesPerTask: ReadonlyArray<{ successes: number; trials: number }>, k: number): number {
  if (successesPerTask.length === 0) return 0;
  const total = successesPerTask.reduce((sum, task) => sum + (task.trials < k ? 0 : combinations(task.successes, k) / combinations(task.trials, k)), 0);
  return total / successesPerTask.length;
}

function combinations(n: number, k: number): number {
  if (k > n) return 0;
  let result = 1;
  for (let index = 0; index < k; index++) result = (result * (n - index)) / (index + 1);
  return result;
}
