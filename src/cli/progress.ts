import type { CliIO } from "./io.js";

/**
 * A one-line progress bar on standard error, redrawn at most ten times a second; nothing at all
 * when standard error is not a terminal (a log file or CI gets only the final report).
 */
export function createProgress(io: CliIO, label: string): { update(fraction: number, detail: string): void; end(): void } {
  const tty = io.stderrTTY;
  if (!tty) return { update: () => {}, end: () => {} };
  let last = 0;
  let drawn = false;
  const draw = (fraction: number, detail: string) => {
    const width = 24;
    const f = Math.max(0, Math.min(1, fraction));
    const filled = Math.round(f * width);
    const line = `${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(Math.floor(f * 100)).padStart(3)}%  ${detail}`;
    tty.write(`\r\x1b[2K${line.slice(0, (tty.columns ?? 80) - 1)}`);
    drawn = true;
  };
  return {
    update(fraction, detail) {
      const now = Date.now();
      if (now - last < 100 && fraction < 1) return;
      last = now;
      draw(fraction, detail);
    },
    end() { if (drawn) tty.write("\r\x1b[2K"); },
  };
}
