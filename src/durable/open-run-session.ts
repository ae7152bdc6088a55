/** How long an execution waits for the run's session that another execution of the run still holds. */
const heldSessionWaitMs = 20_000;

/**
 * Opens the run's own session, waiting (up to 20 s) while another execution of the run still holds
 * it: one cancelled (or taken for dead) that had not opened the session yet when `resume` looked, and
 * lets it go at its next step, where the engine stops it. Resumed at once after a cancel, the new
 * execution found the session locked and failed the run with session_locked.
 */
export async function openRunSession<Writer>(open: () => Promise<Writer>, waitMs = heldSessionWaitMs): Promise<Writer> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return await open();
    } catch (error) {
      if ((error as { code?: unknown } | undefined)?.code !== "session_locked" || Date.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
