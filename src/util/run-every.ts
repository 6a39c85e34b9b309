/**
 * Runs `job` every `everyMs` on an unref'd timer (it never keeps the process alive), one run at a
 * time: a tick while the last run is still going is skipped. `job` handles its own failures.
 * Returns a stop function that waits for a run in progress.
 */
export function runEvery(everyMs: number, job: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = job().finally(() => { running = undefined; });
  }, everyMs);
  timer.unref();
  return async () => { clearInterval(timer); await running; };
}
