// Rule references as links. The API cites a rule by its anchor, `docs/rules.md#fc-claims` (an audit violation's
// `rule`, a rule option's `rule`); the pages show each citation as a link named by the rule's title in the reader's
// language (the page's `#rule-titles`, service/ui/rule_titles.py), to that rule on the rules page
// (`/docs/rules#fc-claims`), opened in a new tab so the page being read keeps its state. A card's code in a text
// for people is said as the card's name, the code after it as a hint.
import { CARD_CODE, CARD_IN_TEXT, cardNames } from "./cards.js";
import { h } from "./common.js";
import { t } from "./i18n.js";

let titles = null;
/** The title of the rule at `anchor`, in the page's language (null: not on the rules page). */
function ruleTitle(anchor) {
  if (titles === null) {
    const block = document.getElementById("rule-titles");
    titles = block ? JSON.parse(block.textContent) : {};
  }
  return titles[anchor] || null;
}

const CITED = "docs/rules.md";
const CITATION = /docs\/rules\.md(?:#[A-Za-z0-9_-]+)?/g;

/** The rules page's address for a citation: `docs/rules.md#fc-claims` is `/docs/rules#fc-claims`. */
export const ruleHref = (citation) => `/docs/rules${citation.slice(CITED.length)}`;

// A card's code inside a text for people ("khạp rC rC rC, rồi đánh wA"), and a run of them, spaced or written
// together as Chắn's hands are ("5m5s5c8m8s8cCC").
const CARD_RUN = new RegExp(`(?<![\\w-])${CARD_CODE}(?: ?${CARD_CODE})*(?![\\w-])`, "g");
const CODES = new RegExp(CARD_CODE, "g");

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

/** `text` with each card code in it said by the card's name (the code a hint after it): strings and spans. */
export const withCodes = (text) => split(text, CARD_RUN, (found) => h("span", { class: "card-name", "data-codes": found }, cardNames(found.match(CODES))));

/** `text` whose cards are already named (the page's own sentences) with each code in it marked as a code, never a
 * word to translate: strings and spans. */
export const hinted = (text) => split(text, CARD_IN_TEXT, (found) => h("span", { class: "card-code", translate: "no" }, found));

/** `text` for people as the API gives it: every rule citation a link named by its rule's title, every card named. */
export const ruleLinks = (text) => split(text, CITATION, (found) => {
  const anchor = found.includes("#") ? found.slice(found.indexOf("#") + 1) : null;
  return h("a", { href: ruleHref(found), class: "rule-link", target: "_blank", rel: "noopener",
    title: t("the rule, in a new tab"), "data-rule": found }, (anchor && ruleTitle(anchor)) || t("the rules"));
}, withCodes);

/** A short link ("rule") to the rule a citation names, for a control it explains (`name`: the control's name). */
export function ruleLink(text, name) {
  const [citation] = String(text ?? "").match(CITATION) || [];
  if (!citation) return null;
  return h("a", { href: ruleHref(citation), class: "rule-link", target: "_blank", rel: "noopener",
    "aria-label": t("rule of {name}", { name }), title: t("the rule, in a new tab") }, t("rule"));
}
