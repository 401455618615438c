// The games' words for the API's codes, shared by every page: meld and claim kinds, seat roles, how a round ended,
// where a public card came from and the unit of a loss. Each word is a literal message so the catalogs find it;
// Chắn's pairs and its win keep their Vietnamese names in every language (docs/rules.md#chan-pairs).
import { t } from "./i18n.js";

const FOURCOLOR_KINDS = () => ({ general: t("general"), flower: t("flower"), pair: t("pair"), triple: t("triple"),
  quad: t("quad"), general_quad: t("general quad"), command: t("command"), field: t("field"),
  soldiers3: t("three Soldiers"), soldiers4: t("four Soldiers"), pass: t("pass"), hu: t("hu"), win: t("hu") }); // a win is a hu in Four Color Cards
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

/** Whether a public card was turned up from the stock, read from any `source` the service sends: an audit's table
 * says `draw` (Four Color Cards) or `stock` (Chắn), a request or an advice's answer `stock` (`card_source`); anything
 * else was discarded. Every page says where a card came from through this one function. */
export function turnedUp(source) {
  return source === "stock" || source === "draw";
}

/** A seat as players count them, from 1: the API's seats count from 0 (`seat` 0 is "seat 1" on every page). */
export const seatNumber = (seat) => Number(seat) + 1;

/** "seat 3" for the API's seat 2. */
export function seatName(seat) {
  return t("seat {seat}", { seat: seatNumber(seat) });
}

/** "turned up by seat 3" or "discarded by seat 3" (the API's seat 2): where the public card came from. */
export function fromSeat(seat, source) {
  const n = seatNumber(seat);
  return turnedUp(source) ? t("turned up by seat {seat}", { seat: n }) : t("discarded by seat {seat}", { seat: n });
}

/** The unit a loss or a value is counted in (`loss_unit`). */
export function unitName(unit) {
  const words = { points: t("points"), wins: t("wins"), expected_gain: t("in one-card expected gain"),
    mixed: t("mixed units") };
  return words[unit] || unit || "";
}

/** A player's name: the analysis names an unnamed player by the API's seat ("seat 2"), said as players count
 * ("seat 3") in the page's language. */
export function playerName(name) {
  const seat = /^seat (\d+)$/.exec(name);
  return seat ? seatName(Number(seat[1])) : name;
}
