import type { Config, Source } from "./types.js";

/**
 * How many HTTP workers fit in the memory the process may use (issue 51). Each figure is a
 * process's peak resident memory under the bench's loads, rounded up (docs/performance.md, "Memory";
 * measured by scripts/bench/memory.mjs: idle about 90 MB, 60–70 MB more at the peak):
 * one process alone (`--workers 1`), and with N workers the primary (migrations, mail, the hashing
 * threads for all workers) plus N workers.
 */
export const SINGLE_PROCESS_MB = 160;
export const PRIMARY_MB = 130;
export const WORKER_MB = 140;

/** The memory `--workers n` is expected to need, in MiB. */
export function expectedMb(workers: number): number {
  return workers <= 1 ? SINGLE_PROCESS_MB : PRIMARY_MB + workers * WORKER_MB;
}

/** The most workers, up to one per core, whose expected memory fits in `limitMb`; 1 at least. */
export function fitWorkers(cores: number, limitMb: number): number {
  for (let n = Math.max(1, cores); n > 1; n--) if (expectedMb(n) <= limitMb) return n;
  return 1;
}

/**
 * The banner's line on the workers: how many, and why that many (the cores, the memory, or the
 * operator's choice), with a warning when an explicit --workers is expected not to fit.
 */
export function describeWorkers(config: Readonly<Config>, sources: Readonly<Record<keyof Config, Source>>, cores: number, limitFrom: string): string[] {
  const named = (source: Source, flag: string, env: string) => (source === "flag" ? flag : source === "env" ? env : "the config file");
  const limit = `${config.memoryLimit} MB (${sources.memoryLimit === "default" ? limitFrom : named(sources.memoryLimit, "--memory-limit", "AUTHSVC_MEMORY_LIMIT")})`;
  const shape = config.workers > 1 ? `${config.workers} HTTP worker processes` : "one process";
  const need = `about ${expectedMb(config.workers)} MB`;
  if (sources.workers !== "default") {
    const line = `  memory:     ${shape} as asked (${named(sources.workers, `--workers ${config.workers}`, `AUTHSVC_WORKERS=${config.workers}`)}), ${need} under load; may use ${limit}.`;
    if (expectedMb(config.workers) <= config.memoryLimit) return [line];
    const fits = fitWorkers(cores, config.memoryLimit);
    const instead = expectedMb(fits) > config.memoryLimit ? "" : ` ${fits > 1 ? `${fits} workers` : "One process"} would fit.`;
    return [line, `  WARNING: ${config.workers > 1 ? `${config.workers} workers are` : "one process is"} expected to need ${need} under load, more than the ${limit} this server may use; it may run out of memory.${instead}`];
  }
  const why = config.workers === Math.max(1, cores)
    ? `one per core (${cores}), ${need} under load, within ${limit}`
    : `not one per core (${cores}): ${cores} workers need about ${expectedMb(cores)} MB under load, more than ${limit}; ${shape === "one process" ? "one process needs" : "these need"} ${need}`;
  const lines = [`  memory:     ${shape}: ${why}.`];
  if (expectedMb(config.workers) > config.memoryLimit) lines.push(`  WARNING: even one process is expected to need ${need} under load, more than the ${limit} this server may use; it may run out of memory.`);
  return lines;
}
