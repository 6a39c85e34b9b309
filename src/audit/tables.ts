/**
 * The audit room's table, added to the kernel's database type by declaration merging (the kernel
 * never names it); its migration is part of 021 in store/migrations/index.ts.
 */
declare module "../store/schema.js" {
  interface DB {
    audit_log: AuditLogTable;
  }
}

/** One security event: who (`actor`), whom (`person_id`), what (`action`: the event's type), from where, when, and its details (JSON). */
export interface AuditLogTable {
  id: string;
  at: number;
  actor: string;
  person_id: string | null;
  action: string;
  ip: string | null;
  user_agent: string | null;
  details: string | null;
}
