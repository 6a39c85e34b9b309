/** The security-mails room's table and token purpose, added to the kernel's types by declaration merging. */
declare module "../store/schema.js" {
  interface DB {
    known_devices: KnownDevicesTable;
  }
  interface TokenPurposes {
    not_me: true;
  }
}

/** A device and network a person signed in from: the SHA-256 of its User-Agent and network, when first and last seen, when last mailed about. */
export interface KnownDevicesTable {
  person_id: string;
  device: string;
  first_seen: number;
  last_seen: number;
  mailed_at: number | null;
}
