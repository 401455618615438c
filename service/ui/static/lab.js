// The hand lab: build a hand from SVG cards, see what the API says about it, keep the whole lab in the URL.
// lab-state.js holds the lab, lab-builder.js and lab-panels.js draw it, lab-requests.js asks the API; this module
// loads the rule-sets and wires the page's controls to the state: the card faces, undo and redo (buttons, Ctrl+Z
// and Ctrl+Y, the browser's Back and Forward) included.
import { $, bindApiKey, fill, guard, h, pageError, rulesetLabel } from "./common.js";
import { parseCodes } from "./cards.js";
import { embedCode, wireCopy } from "./embed-code.js";
import { faceSelect } from "./faces.js";
import { shareUrl, t } from "./i18n.js";
import { drawBuilder, drawPending, drawSetup } from "./lab-builder.js";
import { searchView, useFamily } from "./lab-panels.js";
import { fetchRulesets, refresh, searchDeeper } from "./lab-requests.js";
import {
  SEARCH_FIELDS, canRedo, changed, clearCards, current, depth, embedQuery, nextEdit, nextGeneration, onChange, parseExposed,
  pendingMeld, restore, rulesetById, rulesets, sortCodes, start, state, writeUrl,
} from "./lab-state.js";

let timer = null;
onChange(() => { // draw at once, drop the answers about the hand before (the search's too); ask once changes pause
  nextGeneration();
  nextEdit();
  searchView.cleared();
  useFamily(current().family);
  showFaces();
  drawBuilder();
  drawHistory();
  drawEmbedCode();
  clearTimeout(timer);
  timer = setTimeout(guard(refresh), 120);
});

/** The faces selector of the rule-set's game (the other game's choice is kept for when it comes back). */
function showFaces() {
  const family = current().family === "chan" ? "chan" : "fourcolor";
  const slot = $("#faces-slot");
  if (slot.firstChild && slot.firstChild.dataset.family === family) return;
  const select = faceSelect(family, "faces");
  select.setAttribute("aria-label", t("Card faces"));
  fill(slot, select);
}

/** "Embed this hand": the hand embed view's address and code for the lab as it is now. */
function drawEmbedCode() {
  const code = embedCode("hand", embedQuery(), t("A hand in the Long Cards hand lab"));
  $("#embed-url").value = code.url;
  $("#embed-iframe").value = code.iframe;
  $("#embed-script").value = code.script;
  $("#embed-copied").textContent = "";
}

/** Undo and Redo are enabled when there is a step of the lab to go to. */
function drawHistory() {
  $("#undo").disabled = depth() === 0;
  $("#redo").disabled = !canRedo();
}

let shownDepth = 0;

function undo() { if (depth() > 0) history.back(); }

function redo() { if (canRedo()) history.forward(); }

function wireHistory() {
  $("#undo").addEventListener("click", undo);
  $("#redo").addEventListener("click", redo);
  window.addEventListener("popstate", guard(() => {
    if (!rulesets.length) return;
    const now = depth();
    restore(now > shownDepth);
    shownDepth = now;
    drawSetup(); drawPending(); changed(false);
  }));
  onChange(() => { shownDepth = depth(); });
  document.addEventListener("keydown", (event) => {
    const key = event.key.toLowerCase();
    if (!(event.ctrlKey || event.metaKey) || event.altKey || !["z", "y"].includes(key)) return;
    const target = event.target;
    // a text field keeps its own undo of what is being typed
    if (target instanceof HTMLElement && (target.matches("input:not([type=radio]):not([type=checkbox]), textarea, select")
      || target.isContentEditable)) return;
    event.preventDefault();
    if (key === "y" || event.shiftKey) redo(); else undo();
  });
}

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
  $("#from-seat").addEventListener("change", (e) => { state.from = Number(e.target.value) - 1; changed(); });
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
  // the rule's options are open where there is room, folded on a phone so the deck comes first
  $("#options-box").open = matchMedia("(min-width: 1000px)").matches;
  // a new key: load what a missing or wrong one kept out, or ask again
  bindApiKey($("#api-key"), () => { pageError(null); guard(rulesets.length ? refresh : loadRulesets)(); });
  $("#ruleset").addEventListener("change", (e) => chooseRuleset(e.target.value));
  $("#seats").addEventListener("change", (e) => { state.seats = Number(e.target.value); drawSetup(); changed(); });
  $("#seat").addEventListener("change", (e) => { state.seat = Number(e.target.value) - 1; changed(); });
  wireCodes();
  wireMelds();
  wireHistory();
  $("#copy-link").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(shareUrl()); $("#copied").textContent = t("link copied"); } catch {
      $("#copied").textContent = shareUrl();
    }
  });
  wireCopy($("#embed-box"), $("#embed-copied"));
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
  fill($("#ruleset"), ...list.map((r) => h("option", { value: r.id }, rulesetLabel(r))));
  start(list);
  shownDepth = depth();
  drawSetup();
  changed(false);
}

wire();
guard(loadRulesets)();
