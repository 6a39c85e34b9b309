import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import type { Words } from "../words/words.js";

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

/**
 * One kind of mail: its built-in template, its file stem (templates folder) and its action. A
 * template written with words (a function of the recipient's locale's words, words/) is built per
 * locale; a fixed one is English whatever the locale.
 */
export interface MailKindDecl { kind: MailKind; stem: string; action: string; template: MailTemplate | ((w: Words) => MailTemplate) }

/** A kind's template in the words of a locale, and the language it is then written in. */
export function templateIn(decl: MailKindDecl, w: Words): { template: MailTemplate; lang: string } {
  return typeof decl.template === "function" ? { template: decl.template(w), lang: w.lang } : { template: decl.template, lang: "en" };
}

/** What a caught mail's token or link is worth: its expiry while it works, undefined once used or gone, null when the mail carries none. */
export type TokenExpiry = (db: Kysely<DB>, mail: { link: string | null; token: string | null }) => Promise<number | undefined | null>;

/** An action as tail-mail and the development inbox name it (X-Authsvc-Action). */
export interface MailAction {
  action: string;
  label: string;
  /** Mail from other local apps is read as this action when its token link's path ends so. */
  linkPathEnd?: string;
  /** Its mails carry a one-time code (6 digits) that tail-mail prints: what `tail-mail --print code` calls it ("a sign-in code"). */
  code?: string;
  /** How the inbox tells whether the mail's token still works (none: the inbox does not say). */
  expiry?: TokenExpiry;
}

/** A room's mail: its actions, where they stand among the others', and its kinds. */
export interface MailBlock {
  /**
   * Where its actions stand in every list of them (tail-mail --action, the development inbox):
   * lower first, blocks at one position in the order they are given (the rooms' order), blocks
   * without one last. The kernel's own mail stands at two: the address's verification at 0, its
   * notices about the ways into an account at 100; the sign-in methods' and the account's mail
   * stand between them, a feature's after them. No block names another's action.
   */
  position?: number;
  actions: readonly MailAction[];
  kinds: readonly MailKindDecl[];
  /** A fingerprint of its own token rows, so the inbox refreshes when one is issued or used. */
  tokensVersion?(db: Kysely<DB>): Promise<{ count: number; newest: number }>;
}

/** The mail table assembled from the kernel's blocks and the rooms'. */
export interface MailTable {
  kinds: readonly MailKind[];
  /** Every action in the documented order, "other" last. */
  actions: readonly MailAction[];
  kind(kind: MailKind): MailKindDecl;
  action(name: string): MailAction | undefined;
  tokensVersions: ReadonlyArray<NonNullable<MailBlock["tokensVersion"]>>;
}

const other: MailAction = { action: "other", label: "Other" };

/** Lists the blocks' actions by their positions (a stable order: equal positions keep the blocks' order). */
export function assembleMail(blocks: readonly MailBlock[]): MailTable {
  const at = (b: MailBlock) => b.position ?? Number.POSITIVE_INFINITY;
  const actions = [...blocks].sort((a, b) => (at(a) === at(b) ? 0 : at(a) - at(b))).flatMap((b) => b.actions);
  const names = new Set<string>();
  for (const a of [...actions, other]) {
    if (names.has(a.action)) throw new Error(`mail action ${a.action} is declared twice`);
    names.add(a.action);
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
