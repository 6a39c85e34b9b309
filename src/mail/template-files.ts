import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { MailTable } from "./kinds.js";
import { unknownPlaceholders, type TemplateOverrides } from "./templates.js";

/**
 * Reads template overrides from `dir`: for each kind (its stem declared with it, MailTable), `<stem>.subject.txt`, `<stem>.txt` and
 * `<stem>.html`, each optional. Read once at start; a template with an unknown {{placeholder}}
 * fails the start with a message naming the file (a typo would otherwise mail a blank).
 */
export function loadTemplateOverrides(dir: string | undefined, mail: MailTable): TemplateOverrides {
  if (!dir) return {};
  if (!existsSync(dir)) throw new Error(`mail templates folder ${dir} does not exist`);
  const out: TemplateOverrides = {};
  for (const kind of mail.kinds) {
    const stem = mail.kind(kind).stem;
    const parts = { subject: `${stem}.subject.txt`, text: `${stem}.txt`, html: `${stem}.html` } as const;
    for (const [part, file] of Object.entries(parts) as Array<[keyof typeof parts, string]>) {
      const path = join(dir, file);
      if (!existsSync(path)) continue;
      let content = readFileSync(path, "utf8");
      if (part === "subject") content = content.trim();
      const bad = unknownPlaceholders(content);
      if (bad.length) throw new Error(`mail template ${path}: unknown placeholder ${bad.map((b) => `{{${b}}}`).join(", ")}`);
      (out[kind] ??= {})[part] = content;
    }
  }
  return out;
}
