// Rule references as links. The API cites a rule by its anchor, `docs/rules.md#fc-claims` (an audit violation's
// `rule`, a rule option's `rule`), and its text stays as the API gives it; the pages show each citation as a link
// to that rule on the rules page (`/docs/rules#fc-claims`), opened in a new tab so the page being read keeps its
// state.
import { h } from "./common.js";
import { t } from "./i18n.js";

const CITED = "docs/rules.md";
const CITATION = /docs\/rules\.md(?:#[A-Za-z0-9_-]+)?/g;

/** The rules page's address for a citation: `docs/rules.md#fc-claims` is `/docs/rules#fc-claims`. */
export const ruleHref = (citation) => `/docs/rules${citation.slice(CITED.length)}`;

// A card's code inside a text for people ("khạp rC rC rC, rồi đánh wA"): a code, never a word to translate.
const CARD_CODE = /(?<![\w-])(?:[rygw][GAECHPS]|[2-9][msc]|CC|F[1-5])(?![\w-])/g;

/** `text` split at each match of `pattern`: the match drawn by `mark`, the text between by `between` (parts). */
function split(text, pattern, mark, between = (plain) => [plain]) {
  const source = String(text ?? "");
  const parts = [];
  let last = 0;
  for (const found of source.matchAll(pattern)) {
    if (found.index > last) parts.push(...between(source.slice(last, found.index)));
    parts.push(mark(found[0]));
    last = found.index + found[0].length;
  }
  if (last < source.length) parts.push(...between(source.slice(last)));
  return parts;
}

/** `text` with each card code in it marked as a code (`translate="no"`): strings and spans, for h() or fill(). */
export const withCodes = (text) => split(text, CARD_CODE, (found) => h("span", { class: "card-code", translate: "no" }, found));

/** `text` for people as the API gives it: every rule citation a link to the rules page, every card code marked. */
export const ruleLinks = (text) => split(text, CITATION, (found) => h("a", { href: ruleHref(found), class: "rule-link",
  target: "_blank", rel: "noopener", translate: "no", title: t("the rule, in a new tab") }, found), withCodes);

/** A short link ("rule") to the rule a citation names, for a control it explains (`name`: the control's name). */
export function ruleLink(text, name) {
  const [citation] = String(text ?? "").match(CITATION) || [];
  if (!citation) return null;
  return h("a", { href: ruleHref(citation), class: "rule-link", target: "_blank", rel: "noopener",
    "aria-label": t("rule of {name}", { name }), title: t("the rule, in a new tab") }, t("rule"));
}
