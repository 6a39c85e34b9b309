import { spawnBin } from "../helpers/bin.js";

export type ServeChild = ReturnType<typeof spawnBin>;

/** Starts the built `bin/authsvc serve` on ephemeral ports; resolves once it listens (with its port). */
export async function startServe(args: string[], cleanup: Array<() => Promise<void> | void>, env: Record<string, string> = {}): Promise<{ child: ServeChild; port: number; banner: () => string }> {
  const child = spawnBin(["serve", "--port", "0", "--mail-catcher-port", "0", ...args], { env: { AUTHSVC_LOG_LEVEL: "info", ...env } });
  cleanup.push(() => { if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL"); });
  let seen = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on("data", (d) => {
      seen += d;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(seen);
      if (m) resolve(Number(m[1]));
    });
    child.on("close", (code) => reject(new Error(`serve exited (${code}) before listening:\n${seen}`)));
  });
  // Give the banner lines after the first one a moment to arrive with the same chunk or the next.
  return { child, port, banner: () => seen };
}

/** Kills the child with a signal and waits until it is gone. */
export async function killChild(child: ServeChild, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once("close", r));
  child.kill(signal);
  await gone;
}
