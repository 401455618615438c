// The hand embed view (/embed/hand): a hand of the lab, its table and public card, and what the service says about
// it, drawn from the answers the server computed with the lab's own requests (`#embed-data`,
// service/ui/embed_views.py) by the lab's own renderers: hu and its points (lab-panels.js), the claims on the public
// card (claims.js), the ranked discards. It asks the API nothing.
import { $, fill, h, rulesetName } from "./common.js";
import { cardElement } from "./cards.js";
import { adviceTable, legalClaims, roleOf } from "./claims.js";
import { meldList } from "./drill-view.js";
import { embedData, showProblem } from "./embed-view.js";
import { t, tn } from "./i18n.js";
import { panel, renderDiscards, renderHu, useFamily } from "./lab-panels.js";
import { fromSeat, roleName, seatNumber } from "./words.js";

/** The cards of a list in the deck's order (codes the deck does not know last), as the lab shows them. */
function sorted(list, deck) {
  const at = (code) => (deck.includes(code) ? deck.indexOf(code) : deck.length);
  return [...list].sort((a, b) => at(a) - at(b));
}

function drawTable({ state, ruleset }) {
  const held = state.hand.length + state.exposed.reduce((n, m) => n + m.cards.length, 0);
  $("#hand-title").textContent = rulesetName(state.ruleset);
  $("#table-context").textContent = t("You are seat {seat} of {seats}", { seat: seatNumber(state.seat), seats: state.seats });
  const n = state.hand.length;
  $("#hand-count").textContent = !state.exposed.length ? tn("{n} card", "{n} cards", n)
    : ruleset.family === "chan" ? tn("{n} card, {held} with the pairs", "{n} cards, {held} with the pairs", n, { held })
      : tn("{n} card, {held} with the melds", "{n} cards, {held} with the melds", n, { held });
  fill($("#hand"), sorted(state.hand, ruleset.cards).map((code) => cardElement(code)));
  $("#exposed-zone").hidden = !state.exposed.length;
  fill($("#exposed"), meldList(state.exposed));
  $("#visible-zone").hidden = !state.visible.length;
  fill($("#visible"), state.visible.map((code) => cardElement(code)));
  $("#public-zone").hidden = !state.public;
  if (state.public) {
    fill($("#public"), cardElement(state.public));
    fill($("#public-from"), fromSeat(state.from, state.source), h("span", { class: "muted" }, " · ",
      t("you are {role}", { role: roleName(roleOf(state.seat, state.from, state.seats, state.source)) })));
  }
}

function draw(data) {
  useFamily(data.ruleset.family);
  drawTable(data);
  renderHu(data.hu, data.settlement);
  const claims = data.claims;
  if (claims) {
    fill(panel("claims-panel"), claims.advice ? adviceTable(claims.advice) : legalClaims(claims.legal, claims.size, claims.total));
  }
  if (data.discards) renderDiscards(data.discards);
}

const data = embedData();
if (data.problem) showProblem(data.problem); else draw(data);
