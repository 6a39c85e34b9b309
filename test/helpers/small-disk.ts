import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A small file system of the test's own, mounted at `dir`, or why none could be mounted. */
export type SmallDisk = { dir: string; kind: "tmpfs" | "ext4 image"; unmount(): void } | { skipReason: string };

/**
 * Mounts a file system of `sizeMb` megabytes that a test can fill up: tmpfs first (root only), then
 * a loop-mounted ext4 image (a container without tmpfs mounts may still allow loop devices). Both
 * need root; CI runs as root, so there the test always runs.
 */
export function mountSmallDisk(sizeMb: number): SmallDisk {
  if (process.getuid?.() !== 0) return { skipReason: "mounting a small file system needs root (CI runs as root)" };
  const base = mkdtempSync(join(tmpdir(), "authsvc-disk-"));
  const dir = join(base, "mnt");
  execFileSync("mkdir", [dir]);
  const done = (kind: "tmpfs" | "ext4 image", extra: () => void = () => {}) => ({
    dir,
    kind,
    unmount: () => {
      try { execFileSync("umount", [dir], { stdio: "pipe" }); } catch { execFileSync("umount", ["-l", dir], { stdio: "pipe" }); }
      extra();
      rmSync(base, { recursive: true, force: true });
    },
  });
  const reasons: string[] = [];
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${sizeMb}m,mode=0700`, "tmpfs", dir], { stdio: "pipe" });
    return done("tmpfs");
  } catch (err) {
    reasons.push(`tmpfs: ${(err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message}`);
  }
  const image = join(base, "disk.img");
  try {
    execFileSync("truncate", ["-s", `${sizeMb}M`, image]);
    execFileSync("mkfs.ext4", ["-q", "-F", "-m", "0", image], { stdio: "pipe" });
    execFileSync("mount", ["-o", "loop", image, dir], { stdio: "pipe" });
    return done("ext4 image");
  } catch (err) {
    reasons.push(`ext4 image: ${(err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message}`);
  }
  rmSync(base, { recursive: true, force: true });
  return { skipReason: `cannot mount a small file system here (${reasons.join("; ")})` };
}
