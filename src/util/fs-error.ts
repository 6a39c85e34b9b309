/**
 * What a failed file-system call means, in words a user acts on, instead of a raw `ENOENT`:
 * "does not exist", "permission denied", …; the code is kept in brackets for a search.
 */
export function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT": return "no such file or directory (ENOENT)";
    case "EACCES":
    case "EPERM": return `permission denied (${code})`;
    case "EISDIR": return "it is a directory, not a file (EISDIR)";
    case "ENOTDIR": return "a part of the path is a file, not a directory (ENOTDIR)";
    case "EROFS": return "the file system is read-only (EROFS)";
    case "ENOSPC": return "no space left on the device (ENOSPC)";
    default: return err instanceof Error ? err.message : String(err);
  }
}
