// Drawing the hand lab's answer panels: legal melds (Chắn: pairs), hu (Chắn: Ù) with its points line by line, the
// ranked discards and the deeper search with its progress. Each function draws one answer of the API; none asks
// the API itself. The words follow the rule-set's game: Chắn has pairs (Chắn, Cạ, Chíu) and wins (Ù), not melds
// and hu.
import { $, fill, fmt, h, pct, problemBlock, scrollBox, stacked } from "./common.js";
import { cardElement } from "./cards.js";
import { t, tn } from "./i18n.js";
import { ruleLinks, withCodes } from "./rulelinks.js";
import { kindName as kindWord, seatNumber } from "./words.js";

/** The game of the lab's rule-set, set by the lab before it draws ("fourcolor" or "chan"). */
let family = "fourcolor";

/** Words of the game: set the game, and retitle every element carrying `data-fourcolor` / `data-chan` words. */
export function useFamily(name) {
  family = name === "chan" ? "chan" : "fourcolor";
  for (const element of document.querySelectorAll("[data-chan][data-fourcolor]")) {
    element.textContent = element.dataset[family];
  }
}

/** Why a search stopped (its `stopped` code), in words. */
function stoppedName(stopped) {
  const words = { samples: t("every deal asked for was played"), time_budget: t("the time allowed ran out"),
    leader_clear: t("the best discard was clear") };
  return words[stopped] || stopped;
}

/** A meld kind in the game's own words (Chắn's pairs: Chắn, Cạ, Chíu). */
export const kindName = (kind) => kindWord(kind, family);

const win = () => kindName("win"); // Ù in Chắn, a hu in Four Color Cards

/** The body of a panel. */
export function panel(id) {
  return $(`#${id} .body`);
}

const cardRow = (list, classes = "small") => h("span", { class: `cards ${classes}` }, list.map((c) => cardElement(c)));

function meldRows(melds) {
  return h("ul", { class: "meld-list" }, melds.map((m) => h("li", {},
    h("span", { class: "kind" }, m.concealed === false ? t("exposed {kind}", { kind: kindName(m.kind) }) : kindName(m.kind)),
    cardRow(m.cards),
    family === "chan" ? null : h("span", { class: "points" }, m.points === 1 ? t("1 pt") : t("{n} pts", { n: m.points })))));
}

/** POST /v1/melds: the melds (Chắn: pairs) the concealed hand can form. */
export function renderMelds(answer) {
  const body = panel("melds-panel");
  const chan = family === "chan";
  if (!answer.melds.length) {
    fill(body, h("p", { class: "muted" }, chan ? t("no pair in the concealed hand") : t("no meld in the concealed hand")));
    return;
  }
  const n = answer.melds.length;
  fill(body, h("p", {}, chan ? t("{n} pairs the concealed hand can form", { n }) : t("{n} melds the concealed hand can form", { n })),
    meldRows(answer.melds));
}

/** Every panel before there is a hand: what to do, no verdict (an empty hand is no win, and pays nobody). */
export function renderEmpty() {
  const pick = family === "chan"
    ? t("Build a hand: click cards of the deck (or type their codes) to see its pairs, whether it wins (Ù) and the best discard.")
    : t("Build a hand: click cards of the deck (or type their codes) to see its melds, whether it wins (hu) and the best discard.");
  fill(panel("hu-panel"), h("p", { class: "empty-state" }, pick));
  for (const id of ["melds-panel", "claims-panel", "discards-panel"]) {
    fill(panel(id), h("p", { class: "muted" }, t("No cards yet.")));
  }
  for (const id of ["hu-panel", "melds-panel", "claims-panel", "discards-panel"]) panel(id).classList.remove("busy");
}

/** POST /v1/hu, and for a win its settlement (null: not asked or refused): the verdict and the points. */
export function renderHu(answer, settlement) {
  const body = panel("hu-panel");
  if (!answer.hu) { // only Chắn answers name the unpaired cards
    fill(body, h("p", { class: "verdict no" }, withCodes(answer.public_card
      ? t("✗ no {win} with {card}", { win: win(), card: answer.public_card }) : t("✗ no {win}", { win: win() }))),
    h("ul", {}, (answer.reasons || []).map((r) => h("li", { "data-code": r.code }, ruleLinks(r.message)))),
    answer.unpaired && answer.unpaired.length ? h("p", {}, t("unpaired:"), " ", cardRow(answer.unpaired)) : null);
    return;
  }
  const lines = settlement ? h("table", { class: "breakdown" },
    h("caption", {}, t("Points, line by line")),
    h("tbody", {}, settlement.breakdown.map((line) => h("tr", { class: `step-${line.step}` },
      h("td", {}, ruleLinks(line.text)), h("td", { class: "num" }, line.points))))) : null;
  const deltas = settlement ? h("p", { class: "deltas" }, h("span", {}, t("Settlement:")), settlement.deltas.map((d, seat) =>
    h("span", { class: `delta ${d > 0 ? "up" : d < 0 ? "down" : ""}` },
      t("seat {seat} {delta}", { seat: seatNumber(seat), delta: `${d > 0 ? "+" : ""}${d}` })))) : null;
  const n = answer.decompositions;
  const points = answer.points === 1 ? t("1 point") : t("{n} points", { n: answer.points });
  const verdict = answer.public_card
    ? t("✓ {win}: {points} (with {card})", { win: win(), points, card: answer.public_card })
    : t("✓ {win}: {points}", { win: win(), points });
  const decompositions = n === 1 ? t("1 decomposition") : t("{n} decompositions", { n });
  fill(body,
    h("p", { class: "verdict yes" }, withCodes(t("{verdict}, {decompositions}", { verdict, decompositions }))), // zh: ，
    h("p", { class: "muted" }, t("Best decomposition:")), meldRows(answer.melds), lines, deltas);
}

function waitsCell(option) {
  if (!option.waits.length) return h("td", { class: "muted" }, "–");
  return h("td", { class: "waits" }, option.waits.map((w) => h("span", { class: "wait" }, cardElement(w.card, { classes: "tiny" }),
    ` ×${w.unseen}`, w.points !== undefined ? ` ${tn("({n} pt)", "({n} pts)", w.points)}` : "")));
}

/** How many ranked discards show at first: the best few; the rest on demand ("Show all"), on every screen. */
const FIRST_DISCARDS = 5;
let allDiscards = false; // the reader asked for every discard: the next hands show them all too

/** Show the first few rows of the discards' `table`, or all of them, with the button that switches. */
function firstDiscards(table) {
  const rows = [...table.tBodies[0].rows];
  if (rows.length <= FIRST_DISCARDS) return null;
  const toggle = h("button", { type: "button", class: "show-all", "aria-controls": table.id });
  const show = () => {
    rows.forEach((row, i) => { row.hidden = !allDiscards && i >= FIRST_DISCARDS; });
    toggle.textContent = allDiscards ? t("Show the first {n}", { n: FIRST_DISCARDS }) : t("Show all {n}", { n: rows.length });
    toggle.setAttribute("aria-expanded", String(allDiscards));
  };
  toggle.addEventListener("click", () => { allDiscards = !allDiscards; show(); });
  show();
  return toggle;
}

/** POST /v1/discards: every discard ranked, the first few shown. */
export function renderDiscards(answer) {
  const body = panel("discards-panel");
  const heads = [t("rank"), t("discard"), t("distance"), t("waits (unseen copies)"), t("improving"), t("expected gain"), t("why")];
  const table = stacked(h("table", { class: "ranked", id: "discards-table" },
    h("thead", {}, h("tr", {}, heads.map((head) => h("th", { scope: "col" }, head)))),
    h("tbody", {}, answer.discards.map((option) => h("tr", { class: option.rank === 1 ? "best" : "" },
      h("td", { class: "num" }, option.rank), h("td", {}, cardElement(option.card, { classes: "tiny" })),
      h("td", { class: "num" }, option.distance), waitsCell(option),
      h("td", { class: "num" }, option.improving_unseen), h("td", { class: "num" }, fmt(option.expected_gain, 3)),
      h("td", { class: "reason" }, ruleLinks(option.reason)))))));
  fill(body,
    h("p", { class: "summary" }, withCodes(t("Distance to a win now: {distance}; {unseen} cards unseen. Best: {best}",
      { distance: answer.distance, unseen: answer.unseen_total, best: answer.best.join(", ") }))),
    scrollBox(t("Discards ranked"), table), firstDiscards(table));
}

/** A panel waiting for something the lab lacks, saying what. */
export function renderWaiting(id, text) {
  fill(panel(id), h("p", { class: "muted" }, text));
}

function interval(stat, asPercent) {
  if (!stat) return h("span", { class: "muted" }, t("– (the first)"));
  const f = asPercent ? pct : (x) => fmt(x, 2);
  return h("span", {}, h("strong", {}, f(stat.mean)), h("span", { class: "muted" }, ` [${f(stat.low)}, ${f(stat.high)}]`));
}

function intervalBar(stat, lo, hi) {
  const span = hi - lo || 1;
  const x = (v) => 4 + (112 * (v - lo)) / span;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 120 12"); svg.setAttribute("class", "interval"); svg.setAttribute("aria-hidden", "true");
  svg.innerHTML = `<line x1="${x(stat.low)}" x2="${x(stat.high)}" y1="6" y2="6" stroke="currentColor" stroke-width="3"/>` +
    `<circle cx="${x(stat.mean)}" cy="6" r="3.5" fill="currentColor"/>`;
  return svg;
}

/**
 * Whether the search's leader is clearly ahead: its interval on the objective lies wholly above the runner-up's.
 * Answers [leader, runner-up or null, clear].
 */
export function searchVerdict(result) {
  const [leader, next] = result.candidates;
  if (!next) return [leader, null, true];
  const key = result.objective;
  return [leader, next, leader[key].low > next[key].high];
}

function renderSearch(result) {
  const body = panel("search-panel");
  const settlements = result.candidates.flatMap((c) => [c.expected_settlement.low, c.expected_settlement.high]);
  const lo = Math.min(...settlements), hi = Math.max(...settlements);
  const [leader, next, clear] = searchVerdict(result);
  const verdict = !next ? t("Best: {card} (the only candidate).", { card: leader.card })
    : clear ? t("Best: {card}: its interval lies above that of {next}.", { card: leader.card, next: next.card })
      : t("No clear best: {card} leads, but its interval overlaps that of {next}; more deals may tell them apart.",
        { card: leader.card, next: next.card });
  const objective = result.objective === "win_probability" ? t("win probability") : t("expected settlement");
  const heads = [t("discard"), t("exact rank"), t("win probability (95%)"), t("expected settlement (95%)"), "",
    t("versus the first (95%)"), t("chance of paying"), t("playouts")];
  fill(body,
    h("p", { class: `search-verdict ${clear ? "clear" : "unclear"}` }, withCodes(verdict)),
    h("p", { class: "muted" }, t("{deals} deals, {playouts} playouts · stopped: {stopped} · ranked on {objective}. “Versus the first” is each discard's {objective} minus that of the first candidate, deal by deal.",
    { deals: result.deals, playouts: result.playouts, stopped: stoppedName(result.stopped), objective })),
    // a phone shows each candidate as a block of labelled lines (common.js `stacked`): no column is cut off
    scrollBox(t("Search deeper"), stacked(h("table", { class: "ranked search-table" },
      h("thead", {}, h("tr", {}, heads.map((head) => h("th", { scope: "col" }, head)))),
      h("tbody", {}, result.candidates.map((c) => h("tr", { class: c === leader ? (clear ? "best" : "leader") : "" },
        h("td", {}, cardElement(c.card, { classes: "tiny" })), h("td", { class: "num" }, c.exact_rank),
        h("td", {}, interval(c.win_probability, true)), h("td", {}, interval(c.expected_settlement, false)),
        h("td", {}, intervalBar(c.expected_settlement, lo, hi)),
        h("td", { class: "versus" }, interval(c.versus_first, result.objective === "win_probability")),
        h("td", {}, interval(c.pay_probability, true)),
        h("td", { class: "num" }, c.playouts,
          c.eliminated_after ? h("span", { class: "muted" }, " ", t("(out after {n})", { n: c.eliminated_after })) : ""))))))));
}

/** The deeper search as it runs: its button, progress bar, status line and result (a table, or its problem). */
export const searchView = {
  started() {
    $("#search").disabled = true;
    const bar = $("#search-progress");
    bar.hidden = false; bar.value = 0; $("#search-status").textContent = t("queued…");
    fill(panel("search-panel"));
  },
  progress(fraction, job) {
    $("#search-progress").value = fraction;
    $("#search-status").textContent = t("{status}: {done} / {total} deals",
      { status: job.status, done: job.progress.deals_done, total: job.progress.deals_total });
  },
  finished(result) {
    $("#search-progress").value = 1;
    $("#search-status").textContent = t("finished");
    renderSearch(result);
  },
  failed(problem) {
    $("#search-status").textContent = "";
    $("#search-progress").hidden = true;
    fill(panel("search-panel"), problemBlock(problem));
  },
  /** The hand changed: the last search answered another hand, so it goes (a running one is left to end unseen). */
  cleared() {
    $("#search-status").textContent = "";
    $("#search-progress").hidden = true;
    fill(panel("search-panel"));
  },
  done() {
    $("#search").disabled = false;
  },
};
