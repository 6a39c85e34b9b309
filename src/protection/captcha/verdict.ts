/** What checking a bot-check solution says: its id and how long to remember it, or why it is refused. */
export type CheckedSolution =
  | { ok: true; id: string; expiresAt: number }
  | { ok: false; why: "invalid" | "expired" | "unavailable" };
