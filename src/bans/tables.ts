/**
 * The bans room's tables, added to the kernel's database type by declaration merging (the kernel
 * never names them); their migration keeps the one order of store/migrations/index.ts.
 */
declare module "../store/schema.js" {
  interface DB {
    person_bans: PersonBansTable;
  }
}

/** A person the operator shut out: why, until when (null: for good), since when and by whom (`cli`, `admin-api`, `admin:<id>`). */
export interface PersonBansTable {
  person_id: string;
  reason: string | null;
  until: number | null;
  created_at: number;
  source: string;
}
