/**
 * What a server runs once, however many workers serve HTTP (`serve --workers N`, cli/serve-cluster.ts).
 * The one place that says it: app.start() starts the roles it is given; a single-process `serve`
 * gives it every role, a cluster's primary every role, and each HTTP worker none.
 *
 * - migrations: applied by the primary before any worker starts (not a role of app.start, but the
 *   same rule);
 * - the first signing key: made by the primary's start, before any worker forks (each worker's
 *   start only reads it; two first keys at once would be tolerated anyway: insertFirstSigningKey);
 * - "mail-catcher": the development SMTP catcher listens on one port;
 * - "outbox": one mail delivery worker (workers' requests kick it over IPC after their commits),
 *   and what a room's background work does once at start, which reads this role
 *   (BackgroundWork.prepare, e.g. the sync of configured webhook endpoints);
 * - "purge": the hourly purge of expired tokens and ended sessions, and the self-service account
 *   deletions whose grace period has passed;
 * - "backups": scheduled SQLite backups;
 * - "metrics-listener": the --metrics-port listener, answering for every worker;
 * - given any role: the workers of the rooms' background work (Room.background, e.g. the webhook
 *   deliveries). An HTTP worker's commit that queued some kicks the primary's over IPC, as for
 *   mail; the deliveries' claims are leased, so several instances on one database never send one twice.
 *
 * Not a role: SQLite WAL checkpoints. Each process checkpoints after its own commits, PASSIVE, on a
 * connection of its own (store/wal-checkpointer.ts); SQLite lets one checkpoint run at a time and
 * a busy one is skipped, so several processes doing so is safe, and the process that writes most
 * checkpoints most. Key rotation is an operator command (`authsvc keys rotate`), run once by nature.
 */
export type RunOnceRole = "mail-catcher" | "outbox" | "purge" | "backups" | "metrics-listener";

export const RUN_ONCE_ROLES: readonly RunOnceRole[] = ["mail-catcher", "outbox", "purge", "backups", "metrics-listener"];

/** The roles an HTTP worker of a cluster runs: none. */
export const HTTP_WORKER_ROLES: readonly RunOnceRole[] = [];
