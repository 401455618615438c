// The games' words for the API's codes, shared by every page: meld and claim kinds, seat roles, how a round ended,
// where a public card came from and the unit of a loss. Each word is a literal message so the catalogs find it;
// Chắn's pairs and its win keep their Vietnamese names in every language (docs/rules.md#chan-pairs).
import { t } from "./i18n.js";

const FOURCOLOR_KINDS = () => ({ general: t("general"), flower: t("flower"), pair: t("pair"), triple: t("triple"),
  quad: t("quad"), general_quad: t("general quad"), command: t("command"), field: t("field"),
  soldiers3: t("soldiers3"), soldiers4: t("soldiers4"), pass: t("pass"), hu: t("hu"), win: t("hu") }); // a win is a hu in Four Color Cards
const CHAN_KINDS = () => ({ chan: "Chắn", ca: "Cạ", chiu: "Chíu", pass: t("pass"), win: "Ù", capture: t("capture") });

/** A meld, pair or claim kind in the game's words (`family`: "fourcolor" or "chan"). */
export function kindName(kind, family) {
  const words = family === "chan" ? CHAN_KINDS() : FOURCOLOR_KINDS();
  return words[kind] || kind;
}

/** A seat's role on a public card (the API's role names are codes). */
export function roleName(role) {
  const words = { drawer: t("drawer"), discarder: t("discarder"), next: t("next"), other: t("other") };
  return words[role] || role;
}

/** How a round ended (an outcome's `type`). */
export function outcomeName(type, family) {
  const words = { hu: kindName("hu"), win: kindName("win", family), draw: t("a draw (the stock ran out)"),
    incomplete: t("not finished") };
  return words[type] || type;
}

/** "from seat 2's discard": where the public card came from. */
export function fromSeat(seat, source) {
  return source === "stock" ? t("turned up by seat {seat}", { seat }) : t("discarded by seat {seat}", { seat });
}

/** The unit a loss or a value is counted in (`loss_unit`). */
export function unitName(unit) {
  const words = { points: t("points"), wins: t("wins"), expected_gain: t("in one-card expected gain"),
    mixed: t("mixed units") };
  return words[unit] || unit || "";
}

/** A player's name: the analysis names an unnamed player by his seat ("seat 2"), said in the page's language. */
export function playerName(name) {
  const seat = /^seat (\d+)$/.exec(name);
  return seat ? t("seat {seat}", { seat: Number(seat[1]) }) : name;
}
