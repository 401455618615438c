// The hand lab: build a hand from SVG cards, see what the API says about it, keep the whole lab in the URL.
import { $, fill, FieldErrors, Problem, api, bindApiKey, fmt, guard, h, pageError, pct, post, problemBlock, runJob } from "./common.js";
import { cardElement, parseCodes } from "./cards.js";
import { renderClaims, roleOf } from "./claims.js";

const errors = new FieldErrors();
let rulesets = []; // empty until GET /v1/rulesets answers
let state = null; // {ruleset, options, seats, seat, hand, exposed, visible, public, from, source}
let pendingMeld = [];
let generation = 0; // answers of an older state are dropped

const rulesetById = (id) => rulesets.find((r) => r.id === id);
const current = () => rulesetById(state.ruleset);
const copiesOf = (code) => (/^F\d$/.test(code) ? 1 : 4);
const handSize = (rs) => (rs.family === "chan" ? 20 : 21);

const SEARCH_FIELDS = [["samples", "#samples"], ["budget", "#budget"], ["search_seed", "#search-seed"]];

// -- the URL holds the lab -----------------------------------------------------------------------------------
function toQuery(s) {
  const q = new URLSearchParams();
  q.set("ruleset", s.ruleset);
  for (const [name, value] of Object.entries(s.options)) q.set(`opt.${name}`, String(value));
  q.set("seats", s.seats); q.set("seat", s.seat);
  if (s.hand.length) q.set("hand", s.hand.join(","));
  if (s.exposed.length) q.set("exposed", s.exposed.map((m) => `${m.kind}:${m.cards.join(".")}`).join("|"));
  if (s.visible.length) q.set("visible", s.visible.join(","));
  if (s.public) q.set("public", s.public);
  q.set("from", s.from); q.set("source", s.source);
  for (const [name, id] of SEARCH_FIELDS) q.set(name, $(id).value);
  return q.toString();
}

function fromQuery(search) {
  const q = new URLSearchParams(search);
  for (const [name, id] of SEARCH_FIELDS) if (q.get(name) !== null) $(id).value = q.get(name);
  const rs = rulesetById(q.get("ruleset")) || rulesets[0];
  const options = {};
  for (const option of rs.options) {
    const raw = q.get(`opt.${option.name}`);
    if (raw === null) continue;
    options[option.name] = option.type === "integer" ? Number(raw) : option.type === "boolean" ? raw === "true" : raw;
  }
  const list = (name) => (q.get(name) ? q.get(name).split(",").filter(Boolean) : []);
  const exposed = (q.get("exposed") || "").split("|").filter(Boolean).map((part) => {
    const [kind, cards = ""] = part.split(":");
    return { kind, cards: cards.split(".").filter(Boolean) };
  });
  const seats = Number(q.get("seats")) || rs.seats.max;
  const seat = Number(q.get("seat")) || 0;
  const from = q.get("from") === null ? (seat + seats - 1) % seats : Number(q.get("from")); // default: I am next
  return { ruleset: rs.id, options, seats, seat, hand: list("hand"), exposed, visible: list("visible"),
    public: q.get("public") || null, from, source: q.get("source") || "discard" };
}

// -- the request bodies ------------------------------------------------------------------------------------
function base() {
  return { ruleset: state.ruleset, options: state.options };
}
function cards() {
  return { ...base(), hand: state.hand, exposed: state.exposed };
}

// -- drawing the builder -----------------------------------------------------------------------------------
function used(code) {
  let n = state.hand.filter((c) => c === code).length + pendingMeld.filter((c) => c === code).length;
  for (const meld of state.exposed) n += meld.cards.filter((c) => c === code).length;
  n += state.visible.filter((c) => c === code).length;
  if (state.public === code) n += 1;
  return n;
}

function target() {
  return ($("input[name=target]:checked") || {}).value || "hand";
}

function addCard(code) {
  const where = target();
  if (where === "hand") state.hand.push(code);
  else if (where === "meld") { pendingMeld.push(code); drawPending(); return; }
  else if (where === "visible") state.visible.push(code);
  else state.public = code;
  changed();
}

function sortCodes(list) {
  const order = current().cards;
  const at = (code) => (order.includes(code) ? order.indexOf(code) : order.length); // unknown codes stay last
  return [...list].sort((a, b) => at(a) - at(b));
}

function drawPalette() {
  const rs = current();
  const palette = $("#palette");
  const shown = [...palette.children].map((b) => b.dataset.code);
  if (shown.join() !== rs.cards.join()) { // a new deck; otherwise update in place, so the focus stays on its card
    fill(palette, ...rs.cards.map((code) => cardElement(code, { onclick: () => addCard(code), extra: "" })));
  }
  for (const button of palette.children) {
    const code = button.dataset.code;
    const left = copiesOf(code) - used(code);
    button.querySelector(".badge").textContent = `×${left}`;
    button.setAttribute("aria-label", `add ${code} (${left} left)`);
    button.classList.toggle("spent", left <= 0);
  }
}

function drawList(container, list, remove) {
  // a removed card's place takes the focus, so the keyboard can go on taking cards out
  const focused = [...container.children].indexOf(document.activeElement);
  fill(container, ...list.map((code, i) => cardElement(code, { onclick: () => remove(i),
    label: `take ${code} out` })));
  if (focused >= 0 && container.children.length) container.children[Math.min(focused, container.children.length - 1)].focus();
}

function drawPending() {
  drawList($("#pending"), pendingMeld, (i) => { pendingMeld.splice(i, 1); drawPending(); drawPalette(); });
  drawPalette();
}

function drawBuilder() {
  const rs = current();
  state.hand = sortCodes(state.hand);
  drawList($("#hand"), state.hand, (i) => { state.hand.splice(i, 1); changed(); });
  $("#hand-count").textContent = `${state.hand.length} in hand, ${state.hand.length + state.exposed.reduce((n, m) => n + m.cards.length, 0)} with the melds (a discard is decided with ${handSize(rs)})`;
  fill($("#exposed"), ...state.exposed.map((meld, i) => h("div", { class: "meld" },
    h("span", { class: "kind" }, meld.kind),
    h("span", { class: "cards small" }, meld.cards.map((code) => cardElement(code))),
    h("button", { type: "button", onclick: () => { state.exposed.splice(i, 1); changed(); },
      "aria-label": `remove the ${meld.kind} ${meld.cards.join(" ")}` }, "✕"))));
  drawList($("#visible"), state.visible, (i) => { state.visible.splice(i, 1); changed(); });
  fill($("#public"), state.public
    ? cardElement(state.public, { onclick: () => { state.public = null; changed(); }, label: `take the public card ${state.public} away` })
    : h("span", { class: "muted" }, "none"));
  $("#hand-codes").value = state.hand.join(" ");
  $("#exposed-codes").value = state.exposed.map((m) => `${m.kind}: ${m.cards.join(" ")}`).join("; ");
  $("#visible-codes").value = state.visible.join(" ");
  $("#public-code").value = state.public || "";
  $("#from-seat").value = state.from;
  $("#from-seat").max = state.seats - 1;
  $("#source").value = state.source;
  $("#role").textContent = `you (seat ${state.seat}) are ${roleOf(state.seat, state.from, state.seats, state.source)}`;
  drawPalette();
}

function drawSetup() {
  const rs = current();
  $("#ruleset").value = rs.id;
  const seats = $("#seats");
  seats.min = rs.seats.min; seats.max = rs.seats.max;
  state.seats = Math.min(Math.max(state.seats, rs.seats.min), rs.seats.max);
  seats.value = state.seats;
  $("#seat").max = state.seats - 1;
  state.seat = Math.min(state.seat, state.seats - 1);
  state.from = Math.min(state.from, state.seats - 1);
  $("#seat").value = state.seat;
  fill($("#meld-kind"), ...rs.melds.map((m) => h("option", { value: m.kind }, m.kind)));
  const box = $("#options");
  fill(box, h("legend", {}, "Options"), ...rs.options.map((option) => optionField(option)));
}

function optionField(option) {
  const value = option.name in state.options ? state.options[option.name] : option.default;
  const id = `opt-${option.name}`;
  let input;
  if (option.choices) {
    input = h("select", { id }, option.choices.map((c) => h("option", { value: c, selected: c === value }, c)));
  } else if (option.type === "boolean") {
    input = h("input", { id, type: "checkbox", checked: Boolean(value) });
  } else {
    input = h("input", { id, type: "number", value, min: option.minimum, max: option.maximum });
  }
  input.dataset.fieldInput = `options.${option.name}`;
  input.addEventListener("change", () => {
    const raw = option.type === "boolean" ? input.checked : input.value;
    const parsed = option.type === "integer" ? (raw === "" ? null : Number(raw)) : raw;
    if (parsed === option.default) delete state.options[option.name]; else state.options[option.name] = parsed;
    changed();
  });
  return h("div", { class: "option" },
    h("label", { for: id, title: option.doc }, option.name, " ", input),
    h("p", { class: "field-error", "data-field": `options.${option.name}`, hidden: true }));
}

// -- the panels --------------------------------------------------------------------------------------------
function panel(id) {
  return $(`#${id} .body`);
}

async function ask(source, container, path, body, render) {
  const mine = generation;
  container.classList.add("busy");
  try {
    const answer = await post(path, body);
    if (mine !== generation) return;
    errors.clear(source);
    render(answer);
  } catch (error) {
    if (mine !== generation) return;
    const problem = error instanceof Problem ? error : new Problem(0, { detail: String(error) });
    errors.set(source, problem);
    fill(container, problemBlock(problem));
  } finally {
    if (mine === generation) container.classList.remove("busy");
  }
}

const cardRow = (list, classes = "small") => h("span", { class: `cards ${classes}` }, list.map((c) => cardElement(c)));

function meldRows(melds) {
  return h("ul", { class: "meld-list" }, melds.map((m) => h("li", {},
    h("span", { class: "kind" }, `${m.concealed === false ? "exposed " : ""}${m.kind}`), cardRow(m.cards),
    h("span", { class: "points" }, `${m.points} pt${m.points === 1 ? "" : "s"}`))));
}

function renderMelds(answer) {
  const body = panel("melds-panel");
  if (!answer.melds.length) { fill(body, h("p", { class: "muted" }, "no meld in the concealed hand")); return; }
  fill(body, h("p", {}, `${answer.melds.length} melds the concealed hand can form`), meldRows(answer.melds));
}

function renderHu(answer, settlement) {
  const body = panel("hu-panel");
  const rs = current();
  if (!answer.hu) {
    fill(body, h("p", { class: "verdict no" }, "✗ no hu", answer.public_card ? ` with ${answer.public_card}` : ""),
      h("ul", {}, (answer.reasons || []).map((r) => h("li", {}, h("code", {}, r.code), " ", r.message))),
      rs.family === "chan" && answer.unpaired && answer.unpaired.length ? h("p", {}, "unpaired: ", cardRow(answer.unpaired)) : null);
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

async function refreshHu() {
  const body = panel("hu-panel");
  const request = { ...cards(), public_card: state.public };
  const mine = generation;
  try {
    const answer = await post("/v1/hu", request);
    if (mine !== generation) return;
    errors.clear("hu");
    let settlement = null;
    if (answer.hu) {
      try {
        settlement = await post("/v1/settlements", { ...request, seats: state.seats, winner: state.seat });
        errors.clear("settlement");
      } catch (error) {
        if (!(error instanceof Problem)) throw error;
        errors.set("settlement", error);
        if (mine === generation) { renderHu(answer, null); body.append(problemBlock(error)); }
        return;
      }
    }
    if (mine === generation) renderHu(answer, settlement);
  } catch (error) {
    if (mine !== generation) return;
    const problem = error instanceof Problem ? error : new Problem(0, { detail: String(error) });
    errors.set("hu", problem);
    fill(body, problemBlock(problem));
  }
}

function waitsCell(option) {
  if (!option.waits.length) return h("td", { class: "muted" }, "–");
  return h("td", {}, option.waits.map((w) => h("span", { class: "wait" }, cardElement(w.card, { classes: "tiny" }),
    ` ×${w.unseen}`, w.points !== undefined ? ` (${w.points} pts)` : "")));
}

function renderDiscards(answer) {
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

function discardsRequest() {
  return { ...cards(), visible: state.visible, seats: state.seats, seat: state.seat };
}

function refresh() {
  generation += 1;
  const rs = current();
  pageError(null);
  ask("melds", panel("melds-panel"), "/v1/melds", cards(), renderMelds);
  refreshHu();
  if (state.public) {
    renderClaims({ state, rs, body: panel("claims-panel"), errors, generation: () => generation });
  } else {
    errors.clear("claims");
    fill(panel("claims-panel"), h("p", { class: "muted" }, "Pick a public card (target “public card”, or its code) to see the claims on it."));
  }
  const total = state.hand.length + state.exposed.reduce((n, m) => n + m.cards.length, 0);
  if (total === handSize(rs)) {
    ask("discards", panel("discards-panel"), "/v1/discards", discardsRequest(), renderDiscards);
  } else {
    errors.clear("discards");
    fill(panel("discards-panel"), h("p", { class: "muted" },
      `A discard is decided with ${handSize(rs)} cards in hand and exposed melds; this hand has ${total}.`));
  }
}

let timer = null;
function changed() {
  history.replaceState(null, "", `?${toQuery(state)}`);
  drawBuilder();
  clearTimeout(timer);
  timer = setTimeout(guard(refresh), 120);
}

// -- search deeper (a job) ---------------------------------------------------------------------------------
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

async function searchDeeper() {
  const button = $("#search"), bar = $("#search-progress"), status = $("#search-status");
  const body = panel("search-panel");
  const request = { ...discardsRequest(), samples: Number($("#samples").value), time_budget: Number($("#budget").value),
    seed: Number($("#search-seed").value) };
  button.disabled = true; bar.hidden = false; bar.value = 0; status.textContent = "queued…";
  fill(body);
  try {
    const result = await runJob("/v1/searches", request, (fraction, job) => {
      bar.value = fraction;
      status.textContent = `${job.status}: ${job.progress.deals_done} / ${job.progress.deals_total} deals`;
    }, (p) => [p.deals_done || 0, p.deals_total || 0]);
    errors.clear("search");
    bar.value = 1;
    status.textContent = "finished";
    renderSearch(result);
  } catch (error) {
    const problem = error instanceof Problem ? error : new Problem(0, { detail: String(error) });
    errors.set("search", problem);
    status.textContent = "";
    bar.hidden = true;
    fill(body, problemBlock(problem));
  } finally {
    button.disabled = false;
  }
}

// -- wiring ------------------------------------------------------------------------------------------------
function parseExposed(text) {
  return text.split(";").map((s) => s.trim()).filter(Boolean).map((part) => {
    const [kind, rest = ""] = part.includes(":") ? part.split(":") : [part, ""];
    return { kind: kind.trim(), cards: parseCodes(rest) };
  });
}

function wire() {
  // a new key: load what a missing or wrong one kept out, or ask again
  bindApiKey($("#api-key"), () => { pageError(null); guard(rulesets.length ? refresh : loadRulesets)(); });
  $("#ruleset").addEventListener("change", (e) => {
    const rs = rulesetById(e.target.value);
    const family = current().family;
    state.ruleset = rs.id; state.options = {};
    if (rs.family !== family) { state.hand = []; state.exposed = []; state.visible = []; state.public = null; pendingMeld = []; }
    drawSetup(); changed();
  });
  $("#seats").addEventListener("change", (e) => { state.seats = Number(e.target.value); drawSetup(); changed(); });
  $("#seat").addEventListener("change", (e) => { state.seat = Number(e.target.value); changed(); });
  $("#hand-codes").addEventListener("change", (e) => { state.hand = parseCodes(e.target.value); changed(); });
  $("#visible-codes").addEventListener("change", (e) => { state.visible = parseCodes(e.target.value); changed(); });
  $("#exposed-codes").addEventListener("change", (e) => { state.exposed = parseExposed(e.target.value); changed(); });
  $("#public-code").addEventListener("change", (e) => { state.public = e.target.value.trim() || null; changed(); });
  $("#from-seat").addEventListener("change", (e) => { state.from = Number(e.target.value); changed(); });
  $("#source").addEventListener("change", (e) => { state.source = e.target.value; changed(); });
  $("#add-meld").addEventListener("click", () => {
    if (!pendingMeld.length) return;
    state.exposed.push({ kind: $("#meld-kind").value, cards: sortCodes(pendingMeld) });
    pendingMeld = []; drawPending(); changed();
  });
  $("#clear-meld").addEventListener("click", () => { pendingMeld = []; drawPending(); });
  $("#clear-all").addEventListener("click", () => {
    state.hand = []; state.exposed = []; state.visible = []; state.public = null; pendingMeld = []; drawPending(); changed();
  });
  $("#copy-link").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(location.href); $("#copied").textContent = "link copied"; } catch {
      $("#copied").textContent = location.href;
    }
  });
  $("#search").addEventListener("click", guard(searchDeeper));
  for (const [, id] of SEARCH_FIELDS) $(id).addEventListener("change", () => state && history.replaceState(null, "", `?${toQuery(state)}`));
  for (const [id, field] of [["#hand-codes", "hand"], ["#exposed-codes", "exposed"], ["#visible-codes", "visible"],
    ["#public-code", "public_card"], ["#from-seat", "from_seat"], ["#seats", "seats"], ["#seat", "seat"], ["#ruleset", "ruleset"],
    ["#samples", "samples"], ["#budget", "time_budget"]]) {
    $(id).dataset.fieldInput = field;
  }
}

async function loadRulesets() {
  rulesets = (await api("GET", "/v1/rulesets")).data.rulesets;
  fill($("#ruleset"), ...rulesets.map((r) => h("option", { value: r.id }, `${r.id} — ${r.game}`)));
  state = fromQuery(location.search);
  drawSetup();
  changed();
}

wire();
guard(loadRulesets)();
