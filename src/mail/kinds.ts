import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";

/**
 * The kinds of mail, each declared by the room that sends it (Room.mail) beside the kernel's own:
 * its template, the file stem operators override it with, and the action tail-mail and the
 * development inbox name it by. The kernel loops over the assembled table and never names a room.
 */

/** Every kind of mail, by name: each room adds its own by declaration merging (`declare module ".../mail/kinds.js"`). */
export interface MailKinds {
  email_verification: true;
  login_added: true;
  account_secured: true;
}
export type MailKind = keyof MailKinds & string;

export interface MailTemplate { subject: string; text: string; html: string }

/** One kind of mail: its built-in template, its file stem (templates folder) and its action. */
export interface MailKindDecl { kind: MailKind; stem: string; action: string; template: MailTemplate }

/** What a caught mail's token or link is worth: its expiry while it works, undefined once used or gone, null when the mail carries none. */
export type TokenExpiry = (db: Kysely<DB>, mail: { link: string | null; token: string | null }) => Promise<number | undefined | null>;

/** An action as tail-mail and the development inbox name it (X-Authsvc-Action). */
export interface MailAction {
  action: string;
  label: string;
  /** Mail from other local apps is read as this action when its token link's path ends so. */
  linkPathEnd?: string;
  /** Its mails carry a one-time code (6 digits) that tail-mail prints. */
  code?: boolean;
  /** How the inbox tells whether the mail's token still works (none: the inbox does not say). */
  expiry?: TokenExpiry;
}

/** A room's mail: its actions (placed after the action `after`, so every list keeps one order) and kinds. */
export interface MailBlock {
  after?: string;
  actions: readonly MailAction[];
  kinds: readonly MailKindDecl[];
  /** A fingerprint of its own token rows, so the inbox refreshes when one is issued or used. */
  tokensVersion?(db: Kysely<DB>): Promise<{ count: number; newest: number }>;
}

/** The mail table assembled from the kernel's block and the rooms'. */
export interface MailTable {
  kinds: readonly MailKind[];
  /** Every action in the documented order, "other" last. */
  actions: readonly MailAction[];
  kind(kind: MailKind): MailKindDecl;
  action(name: string): MailAction | undefined;
  tokensVersions: ReadonlyArray<NonNullable<MailBlock["tokensVersion"]>>;
}

const other: MailAction = { action: "other", label: "Other" };

/** Places each block's actions after its anchor (in the blocks' order; an anchor may be a later block's). */
export function assembleMail(blocks: readonly MailBlock[]): MailTable {
  const actions: MailAction[] = [];
  let pending = [...blocks];
  while (pending.length) {
    const left = pending.filter((b) => {
      const at = b.after === undefined ? actions.length - 1 : actions.findIndex((a) => a.action === b.after);
      if (at < 0 && b.after !== undefined) return true;
      actions.splice(at + 1, 0, ...b.actions);
      return false;
    });
    if (left.length === pending.length) throw new Error(`mail: no action ${left[0].after} to place a block after`);
    pending = left;
  }
  const kinds = new Map<string, MailKindDecl>();
  for (const k of blocks.flatMap((b) => b.kinds)) {
    if (kinds.has(k.kind)) throw new Error(`mail kind ${k.kind} is declared twice`);
    if (!actions.some((a) => a.action === k.action)) throw new Error(`mail kind ${k.kind}: no action ${k.action}`);
    kinds.set(k.kind, k);
  }
  const byAction = new Map([...actions, other].map((a) => [a.action, a]));
  return {
    kinds: [...kinds.keys()] as MailKind[],
    actions: [...actions, other],
    kind: (kind) => kinds.get(kind) ?? fail(kind),
    action: (name) => byAction.get(name),
    tokensVersions: blocks.flatMap((b) => (b.tokensVersion ? [b.tokensVersion] : [])),
  };
}

function fail(kind: string): never {
  throw new Error(`mail kind ${kind} is not declared`);
}
