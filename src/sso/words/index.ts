import type { Catalogue } from "../../words/catalogue.js";
import { ar } from "./ar.js";
import { de } from "./de.js";
import { en } from "./en.js";
import { es } from "./es.js";
import { fr } from "./fr.js";
import { it } from "./it.js";
import { ja } from "./ja.js";
import { ko } from "./ko.js";
import { nl } from "./nl.js";
import { pl } from "./pl.js";
import { ptBR } from "./pt-BR.js";
import { zhCN } from "./zh-CN.js";

/** The sso room's words (the sign-in page's routing to an organization's SSO), in every shipped locale. */
export const ssoWords: Catalogue<typeof en> = { en, de, fr, es, "pt-BR": ptBR, it, nl, pl, ja, "zh-CN": zhCN, ko, ar };
