import { AuthError } from "../core/errors.js";
import type { PersonPagePart, PersonPanel } from "../http/person-panels.js";
import { endSupportSession, listSupportSessions, MAX_REASON, parseSupportReason, startSupportSession, SUPPORT_SESSION_MS } from "./support.js";
import type { SupportSessionRow } from "./store.js";

/** The dashboard's support-session panel: the live ones with an End button, and the form to start one. */
const supportPanel: PersonPanel<SupportSessionRow[]> = {
  id: "support",
  title: "Support session",
  place: "after-sessions",
  load: (ctx, person) => listSupportSessions(ctx, person.id),
  render: (live, k, person) => {
    const rows = live.map((s) => `<tr><th scope="row">${k.escape(s.admin_email)}</th><td>${k.escape(s.reason)}</td><td>${k.time(s.started_at)}</td><td>${k.time(s.ends_at)}</td><td>${k.button("support/end", "End it", `the support session by ${s.admin_email}`, { danger: true, fields: { handle: s.session_handle } })}</td></tr>`);
    const list = live.length === 0 ? "" : k.table("Live support sessions", ["By", "Reason", "Started", "Ends", "Action"], rows);
    const who = k.escape(person.email || person.id);
    return `${list}
<p>Sign in to the app as ${who} for at most ${SUPPORT_SESSION_MS / 60_000} minutes, to see what they see. Their password, address, second factors, sign-in methods and connected apps cannot be changed in it; it is in the audit log, and they see it among their sessions.</p>
<form method="post" action="${k.escape(k.action("support/start"))}" class="stack">${k.csrfField}
<label for="support-reason">Reason (kept in the audit log and shown to them)</label>
<input id="support-reason" name="reason" type="text" required maxlength="${MAX_REASON}" autocomplete="off">
<label for="support-code">Your authenticator code (your own second factor)</label>
<input id="support-code" name="code" type="text" required inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" spellcheck="false">
<button type="submit">Start a support session as ${who}</button>
</form>`;
  },
};

/** On the dashboard's person page: the panel and its two actions. */
export const supportPersonPage: PersonPagePart = {
  panels: [supportPanel],
  actions: [
    {
      path: "support/start",
      run: async (ctx, person, { form, admin }) => {
        let reason: string;
        try {
          reason = parseSupportReason(form.get("reason") ?? "");
        } catch (err) {
          if (err instanceof AuthError) return { kind: "error", text: `No support session: ${err.message}.` };
          throw err;
        }
        const checked = await admin.confirmSecondFactor(form.get("code") ?? "");
        if (checked === "none") return { kind: "error", text: "No support session: your admin account has no second factor. Set one up first (on the server: authsvc admins reset-2fa <your address>)." };
        if (checked === "wrong") return { kind: "error", text: "No support session: that authenticator code is wrong or was used already. Wait for the next code and try again." };
        try {
          const started = await startSupportSession(ctx, { userId: person.id, admin: { id: admin.id, email: admin.email }, reason, client: admin.client() });
          if (!started) return { kind: "error", text: "No such user.", gone: true };
          return { kind: "ok", text: "Support session started.", redirect: started.link };
        } catch (err) {
          if (err instanceof AuthError && err.code === "SIGN_IN_REFUSED") return { kind: "error", text: "No support session: this person is banned." };
          throw err;
        }
      },
    },
    {
      path: "support/end",
      run: async (ctx, person, { form, source }) => {
        const ended = await endSupportSession(ctx, person.id, form.get("handle") ?? "", source);
        return ended ? { kind: "ok", text: "The support session ended." } : { kind: "error", text: "That support session had ended already." };
      },
    },
  ],
};
