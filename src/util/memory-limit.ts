import { totalmem } from "node:os";

/** The memory this process may use, in MiB, and where that figure comes from (said in the banner). */
export interface MemoryLimit { mb: number; from: string }

const MIB = 1024 * 1024;

/**
 * The cgroup's memory limit (v2 `memory.max` or v1 `memory.limit_in_bytes`, as libuv reads them
 * through process.constrainedMemory), else the machine's memory. A container on a 256 MB plan sees
 * the host's memory in os.totalmem(); only the cgroup says what it may really use. Without a limit
 * Node.js 20 answers 0 or 2^64, which is no limit: the machine's memory then.
 */
export function detectMemoryLimit(constrained: number | undefined = process.constrainedMemory?.(), total: number = totalmem()): MemoryLimit {
  if (constrained !== undefined && constrained > 0 && constrained < total) return { mb: Math.floor(constrained / MIB), from: "the cgroup's memory limit" };
  return { mb: Math.floor(total / MIB), from: "the machine's memory" };
}

/**
 * A size in MiB from "256", "256M", "256MB", "256MiB", "1G", "1.5GB" (any case); undefined when it is
 * none of those.
 */
export function parseMegabytes(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(m|mb|mib|g|gb|gib)?\s*$/i.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]) * (m[2] && m[2][0].toLowerCase() === "g" ? 1024 : 1);
  return Number.isFinite(n) ? Math.floor(n) : undefined;
}
