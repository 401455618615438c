// The hand lab: build a hand from SVG cards, see what the API says about it, keep the whole lab in the URL.
// lab-state.js holds the lab, lab-builder.js and lab-panels.js draw it, lab-requests.js asks the API; this module
// loads the rule-sets and wires the page's controls to the state.
import { $, bindApiKey, fill, guard, h, pageError } from "./common.js";
import { parseCodes } from "./cards.js";
import { drawBuilder, drawPending, drawSetup } from "./lab-builder.js";
import { fetchRulesets, refresh, searchDeeper } from "./lab-requests.js";
import {
  SEARCH_FIELDS, changed, clearCards, current, onChange, parseExposed, pendingMeld, rulesetById, rulesets, sortCodes,
  start, state, writeUrl,
} from "./lab-state.js";

let timer = null;
onChange(() => { // draw at once; ask the API once the changes pause
  drawBuilder();
  clearTimeout(timer);
  timer = setTimeout(guard(refresh), 120);
});

/** Another rule-set: its options start at their defaults; the cards go when its deck shares none of them. */
function chooseRuleset(id) {
  const rs = rulesetById(id);
  const before = current();
  state.ruleset = rs.id; state.options = {};
  if (!before.cards.some((code) => rs.cards.includes(code))) clearCards();
  drawSetup(); changed();
}

function wireCodes() {
  $("#hand-codes").addEventListener("change", (e) => { state.hand = parseCodes(e.target.value); changed(); });
  $("#visible-codes").addEventListener("change", (e) => { state.visible = parseCodes(e.target.value); changed(); });
  $("#exposed-codes").addEventListener("change", (e) => { state.exposed = parseExposed(e.target.value); changed(); });
  $("#public-code").addEventListener("change", (e) => { state.public = e.target.value.trim() || null; changed(); });
  $("#from-seat").addEventListener("change", (e) => { state.from = Number(e.target.value); changed(); });
  $("#source").addEventListener("change", (e) => { state.source = e.target.value; changed(); });
}

function wireMelds() {
  $("#add-meld").addEventListener("click", () => {
    if (!pendingMeld.length) return;
    state.exposed.push({ kind: $("#meld-kind").value, cards: sortCodes(pendingMeld) });
    pendingMeld.length = 0; drawPending(); changed();
  });
  $("#clear-meld").addEventListener("click", () => { pendingMeld.length = 0; drawPending(); });
  $("#clear-all").addEventListener("click", () => { clearCards(); drawPending(); changed(); });
}

function wire() {
  // a new key: load what a missing or wrong one kept out, or ask again
  bindApiKey($("#api-key"), () => { pageError(null); guard(rulesets.length ? refresh : loadRulesets)(); });
  $("#ruleset").addEventListener("change", (e) => chooseRuleset(e.target.value));
  $("#seats").addEventListener("change", (e) => { state.seats = Number(e.target.value); drawSetup(); changed(); });
  $("#seat").addEventListener("change", (e) => { state.seat = Number(e.target.value); changed(); });
  wireCodes();
  wireMelds();
  $("#copy-link").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(location.href); $("#copied").textContent = "link copied"; } catch {
      $("#copied").textContent = location.href;
    }
  });
  $("#search").addEventListener("click", guard(searchDeeper));
  for (const [, id] of SEARCH_FIELDS) $(id).addEventListener("change", writeUrl);
  for (const [id, field] of [["#hand-codes", "hand"], ["#exposed-codes", "exposed"], ["#visible-codes", "visible"],
    ["#public-code", "public_card"], ["#from-seat", "from_seat"], ["#seats", "seats"], ["#seat", "seat"], ["#ruleset", "ruleset"],
    ["#samples", "samples"], ["#budget", "time_budget"]]) {
    $(id).dataset.fieldInput = field;
  }
}

async function loadRulesets() {
  const list = await fetchRulesets();
  fill($("#ruleset"), ...list.map((r) => h("option", { value: r.id }, `${r.id} — ${r.game}`)));
  start(list);
  drawSetup();
  changed();
}

wire();
guard(loadRulesets)();
