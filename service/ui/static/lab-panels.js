// Drawing the hand lab's answer panels: legal melds, hu with its points line by line, the ranked discards and the
// deeper search with its progress. Each function draws one answer of the API; none asks the API itself.
import { $, fill, fmt, h, pct, problemBlock } from "./common.js";
import { cardElement } from "./cards.js";

/** The body of a panel. */
export function panel(id) {
  return $(`#${id} .body`);
}

const cardRow = (list, classes = "small") => h("span", { class: `cards ${classes}` }, list.map((c) => cardElement(c)));

function meldRows(melds) {
  return h("ul", { class: "meld-list" }, melds.map((m) => h("li", {},
    h("span", { class: "kind" }, `${m.concealed === false ? "exposed " : ""}${m.kind}`), cardRow(m.cards),
    h("span", { class: "points" }, `${m.points} pt${m.points === 1 ? "" : "s"}`))));
}

/** POST /v1/melds: the melds the concealed hand can form. */
export function renderMelds(answer) {
  const body = panel("melds-panel");
  if (!answer.melds.length) { fill(body, h("p", { class: "muted" }, "no meld in the concealed hand")); return; }
  fill(body, h("p", {}, `${answer.melds.length} melds the concealed hand can form`), meldRows(answer.melds));
}

/** POST /v1/hu, and for a hu its settlement (null: not asked or refused): the verdict and the points. */
export function renderHu(answer, settlement) {
  const body = panel("hu-panel");
  if (!answer.hu) { // only Chắn answers name the unpaired cards
    fill(body, h("p", { class: "verdict no" }, "✗ no hu", answer.public_card ? ` with ${answer.public_card}` : ""),
      h("ul", {}, (answer.reasons || []).map((r) => h("li", {}, h("code", {}, r.code), " ", r.message))),
      answer.unpaired && answer.unpaired.length ? h("p", {}, "unpaired: ", cardRow(answer.unpaired)) : null);
    return;
  }
  const lines = settlement ? h("table", { class: "breakdown" },
    h("caption", {}, "Points, line by line"),
    h("tbody", {}, settlement.breakdown.map((line) => h("tr", { class: `step-${line.step}` },
      h("td", {}, line.text), h("td", { class: "num" }, line.points))))) : null;
  const deltas = settlement ? h("p", {}, "Settlement: ", settlement.deltas.map((d, seat) =>
    h("span", { class: `delta ${d > 0 ? "up" : d < 0 ? "down" : ""}` }, `seat ${seat} ${d > 0 ? "+" : ""}${d}`))) : null;
  fill(body,
    h("p", { class: "verdict yes" }, `✓ hu: ${answer.points} points`,
      answer.public_card ? ` (with ${answer.public_card})` : "",
      `, ${answer.decompositions} decomposition${answer.decompositions === 1 ? "" : "s"}`),
    h("p", { class: "muted" }, "Best decomposition:"), meldRows(answer.melds), lines, deltas);
}

function waitsCell(option) {
  if (!option.waits.length) return h("td", { class: "muted" }, "–");
  return h("td", {}, option.waits.map((w) => h("span", { class: "wait" }, cardElement(w.card, { classes: "tiny" }),
    ` ×${w.unseen}`, w.points !== undefined ? ` (${w.points} pts)` : "")));
}

/** POST /v1/discards: every discard ranked. */
export function renderDiscards(answer) {
  const body = panel("discards-panel");
  fill(body,
    h("p", {}, `Distance to a win now: ${answer.distance}; ${answer.unseen_total} cards unseen. Best: ${answer.best.join(", ")}`),
    h("div", { class: "scroll" }, h("table", { class: "ranked" },
      h("thead", {}, h("tr", {}, ["rank", "discard", "distance", "waits (unseen copies)", "improving", "expected gain", "why"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, answer.discards.map((option) => h("tr", { class: option.rank === 1 ? "best" : "" },
        h("td", { class: "num" }, option.rank), h("td", {}, cardElement(option.card, { classes: "tiny" })),
        h("td", { class: "num" }, option.distance), waitsCell(option),
        h("td", { class: "num" }, option.improving_unseen), h("td", { class: "num" }, fmt(option.expected_gain, 3)),
        h("td", { class: "reason" }, option.reason)))))));
}

/** A panel waiting for something the lab lacks, saying what. */
export function renderWaiting(id, text) {
  fill(panel(id), h("p", { class: "muted" }, text));
}

function interval(stat, asPercent) {
  const f = asPercent ? pct : (x) => fmt(x, 2);
  return h("span", {}, h("strong", {}, f(stat.mean)), h("span", { class: "muted" }, ` [${f(stat.low)}, ${f(stat.high)}]`));
}

function intervalBar(stat, lo, hi) {
  const span = hi - lo || 1;
  const x = (v) => 4 + (112 * (v - lo)) / span;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 120 12"); svg.setAttribute("class", "interval"); svg.setAttribute("aria-hidden", "true");
  svg.innerHTML = `<line x1="${x(stat.low)}" x2="${x(stat.high)}" y1="6" y2="6" stroke="#0b5cad" stroke-width="3"/>` +
    `<circle cx="${x(stat.mean)}" cy="6" r="3.5" fill="#111"/>`;
  return svg;
}

function renderSearch(result) {
  const body = panel("search-panel");
  const settlements = result.candidates.flatMap((c) => [c.expected_settlement.low, c.expected_settlement.high]);
  const lo = Math.min(...settlements), hi = Math.max(...settlements);
  fill(body,
    h("p", {}, `Best: ${result.best} · ${result.deals} deals, ${result.playouts} playouts · stopped: ${result.stopped} · ranked on ${result.objective.replace("_", " ")}`),
    h("div", { class: "scroll" }, h("table", { class: "ranked search-table" },
      h("thead", {}, h("tr", {}, ["discard", "exact rank", "win probability (95%)", "expected settlement (95%)", "", "chance of paying", "playouts"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, result.candidates.map((c) => h("tr", { class: c.card === result.best ? "best" : "" },
        h("td", {}, cardElement(c.card, { classes: "tiny" })), h("td", { class: "num" }, c.exact_rank),
        h("td", {}, interval(c.win_probability, true)), h("td", {}, interval(c.expected_settlement, false)),
        h("td", {}, intervalBar(c.expected_settlement, lo, hi)),
        h("td", {}, interval(c.pay_probability, true)),
        h("td", { class: "num" }, c.playouts, c.eliminated_after ? h("span", { class: "muted" }, ` (out after ${c.eliminated_after})`) : "")))))));
}

/** The deeper search as it runs: its button, progress bar, status line and result (a table, or its problem). */
export const searchView = {
  started() {
    $("#search").disabled = true;
    const bar = $("#search-progress");
    bar.hidden = false; bar.value = 0; $("#search-status").textContent = "queued…";
    fill(panel("search-panel"));
  },
  progress(fraction, job) {
    $("#search-progress").value = fraction;
    $("#search-status").textContent = `${job.status}: ${job.progress.deals_done} / ${job.progress.deals_total} deals`;
  },
  finished(result) {
    $("#search-progress").value = 1;
    $("#search-status").textContent = "finished";
    renderSearch(result);
  },
  failed(problem) {
    $("#search-status").textContent = "";
    $("#search-progress").hidden = true;
    fill(panel("search-panel"), problemBlock(problem));
  },
  done() {
    $("#search").disabled = false;
  },
};
