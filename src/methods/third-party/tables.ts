
/**
 * This room's tables, added to the kernel's database type (store/schema.ts) by declaration merging:
 * the kernel never names them. Their migrations keep the one order of store/migrations/index.ts.
 */
declare module "../../store/schema.js" {
  interface DB {
    third_party_identities: ThirdPartyIdentitiesTable;
  }
}

export interface ThirdPartyIdentitiesTable {
  provider_id: string;
  provider_user_id: string;
  user_id: string;
  email: string;
  created_at: number;
  updated_at: number;
}
