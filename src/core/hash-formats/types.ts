/**
 * One password-hash format brought in from another system. A format is recognised by its string
 * alone (`matches`), has its parameters checked once at import without computing anything
 * (`check`), and verifies a password off the event loop (`verify`, never throws for a bad hash).
 */
export interface HashFormat {
  /** A short name for reports and docs ("argon2", "django-pbkdf2"). */
  id: string;
  matches(hash: string): boolean;
  /** Why this hash is refused (malformed, or parameters out of the sane bounds), or null. */
  check(hash: string): string | null;
  verify(password: string, hash: string): Promise<boolean>;
}
