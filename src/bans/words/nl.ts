import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const nl: Translation<typeof en> = {
  "bans.mail.subject": "Je account is geschorst",
  "bans.mail.intro": "Je account ({email}) is {details} geschorst. Je kunt niet inloggen, en alle apparaten en apps die ermee waren ingelogd, zijn uitgelogd.",
  "bans.mail.button": "Neem contact op met support",
  "bans.mail.outro": "Denk je dat dit een vergissing is? Beantwoord deze mail of neem contact op met support.",
  "bans.mail.outroText": "Denk je dat dit een vergissing is? Beantwoord deze mail of neem contact op met support:",
  "bans.mail.untilFurtherNotice": "tot nader order",
  "bans.mail.until": "tot {until}",
  "bans.mail.withReason": "{when} (reden: {reason})",
};
