// The replay viewer's view of a game, shared by the full viewer (replay.js) and the stored game's embed view
// (embed-replay.js): the round choice, the event list and its stepper (buttons and keys), the table at each event,
// the audit's verdict, and the review's annotations when an analysis is at hand. Where the logs, their audits and
// the analysis come from is the page's business: it hands them over with `open`, and a round's audit it does not
// have yet is asked of `fetchAudit` when the round is shown (the event list and the deal show before it arrives).
import { $, $$, Problem, fill, fmt, h, pct, problemBlock, rulesetName, scrollBox, stacked } from "./common.js";
import { cardElement } from "./cards.js";
import { t, tn } from "./i18n.js";
import { barPlot, legend, linePlot } from "./plots.js";
import { ruleLinks } from "./rulelinks.js";
import { fromSeat, kindName, outcomeName, playerName, roleName, seatName, seatNumber, unitName } from "./words.js";

/** What is shown: the logs, their audits (with tables; a round's may be missing until fetched), the replay job's
 * result, the rule-sets (GET /v1/rulesets' list: the game of each), the round and the event (-1: the deal). */
export const viewer = { logs: [], audits: [], analysis: null, rulesets: [], round: 0, position: -1 };

let fetchAudit = null; // (round) => Promise of its audit, for a round whose audit was not handed over
let pending = new Map(); // round -> the fetch of its audit under way, or the Problem it ended with
let hooks = { shown: () => {}, roundChosen: () => {} };
let marks = null;     // the round's violations and review annotations by event (built once per round)
let items = [];       // the event list's rows: the deal, then each event (built once per round)
let selected = null;  // the row shown as selected

/** `item` with its `seat` counted as players count (from 1), for a message that names it. */
const seated = (item) => ({ ...item, seat: seatNumber(item.seat) });
const log = () => viewer.logs[viewer.round];
// the game of a rule-set, as /v1/rulesets names it ("fourcolor" or "chan"): the words of its kinds and outcomes
const familyOf = (id) => (viewer.rulesets.find((r) => r.id === id) || {}).family;
const family = () => familyOf(log().ruleset);
const audit = () => viewer.audits[viewer.round];
/** The review of the round shown, when an analysis is at hand: its seats. */
const reviewed = () => (viewer.analysis && viewer.analysis.logs[viewer.round] ? viewer.analysis.logs[viewer.round].seats : []);

/** Call `shown` after each step (the full viewer writes its address), `roundChosen` after the reader picks a round. */
export function configure(given) { hooks = { ...hooks, ...given }; }

/**
 * Show a game: `logs`, their `audits` (those at hand), the `analysis` (a replay job's result, or null), at `round`
 * and `position`; `fetch(round)` answers the audit of a round not at hand.
 */
export function open({ logs, audits = [], analysis = null, round = 0, position = -1, fetch = null }) {
  Object.assign(viewer, { logs, audits: [...audits], analysis, round: Math.min(Math.max(round, 0), logs.length - 1), position });
  fetchAudit = fetch;
  pending = new Map();
  drawRounds();
  show();
}

/** Show the analysis `result` (null: none) on the round shown: its annotations in the list, its plots. */
export function setAnalysis(result) {
  viewer.analysis = result;
  drawEvents();
  if (result) drawPlots();
  show();
}

// -- the round's audit -------------------------------------------------------------------------------------
/** Fetch the audit of `round` if it is not at hand; the round is drawn again when it arrives. */
function ensureAudit(round) {
  if (viewer.audits[round] || pending.has(round) || !fetchAudit) return;
  const logs = viewer.logs;
  pending.set(round, fetchAudit(round).then((found) => {
    if (viewer.logs !== logs) return;
    viewer.audits[round] = found;
    pending.delete(round);
    labelRound(round);
    if (viewer.round === round) { drawRound(); show(); }
  }, (error) => {
    if (viewer.logs !== logs) return;
    pending.set(round, error instanceof Problem ? error : new Problem(0, { detail: String(error) }));
    if (viewer.round === round) { drawAudit(); show(); }
  }));
}

/** The problem that stopped the audit of the round shown, if any. */
const auditProblem = () => {
  const found = pending.get(viewer.round);
  return found instanceof Problem ? found : null;
};

// -- stepping ----------------------------------------------------------------------------------------------
function eventText(event) {
  const seat = seatNumber(event.seat);
  switch (event.type) {
    case "discard": return [t("seat {seat} discards", { seat }), event.card];
    case "draw": return [t("seat {seat} turns up", { seat }), event.card || t("the next stock card")];
    case "claim": return [t("seat {seat} claims {meld}", { seat, meld: kindName(event.meld, family()) }), ...(event.cards || [])];
    case "capture": return [t("seat {seat} captures {meld}", { seat, meld: kindName(event.meld, family()) }), ...(event.cards || [])];
    case "chiu": return [t("seat {seat} Chíu", { seat }), ...(event.cards || [])];
    case "hu": return [t("seat {seat} declares hu", { seat })];
    case "win": return [t("seat {seat} wins", { seat })];
    case "pass": return [t("seat {seat} passes", { seat })];
    default: return [t("seat {seat} {type}", { seat, type: event.type })];
  }
}

function grouped(pairs) {
  const map = new Map();
  for (const [key, value] of pairs) {
    if (!map.has(key)) map.set(key, []);
    map.get(key).push(value);
  }
  return map;
}

/** The round's violations, reviewed discards, claim answers and passes by event: built once, read on each step. */
function markRound() {
  const seats = reviewed();
  const violations = audit() ? audit().violations : [];
  marks = {
    violations: grouped(violations.filter((v) => v.event !== null).map((v) => [v.event, v])),
    decisions: new Map(seats.flatMap((s) => (s.decisions || []).map((d) => [d.event, d]))),
    answers: grouped(seats.flatMap((s) => (s.claim_decisions || []).map((d) => [d.event, d]))),
    passes: grouped(seats.flatMap((s) => ((s.review && s.review.passes) || []).map((p) => [p.event, { seat: s.seat, ...p }]))),
  };
}

const at = (map, index) => map.get(index) || [];

function eventRow(event, i) {
  const [text, ...codes] = eventText(event);
  const broken = at(marks.violations, i);
  const decision = marks.decisions.get(i);
  return h("li", { role: "option", id: `event-${i}`, "data-index": i, "aria-selected": "false", class: broken.length ? "violation" : "" },
    h("span", { class: "num" }, `${i + 1}.`), text, codes.map((c) => cardElement(c, { classes: "tiny" })),
    broken.map((v) => h("span", { class: "tag bad", title: v.message, "data-code": v.code }, `⚠ ${t("against the rules")}`)),
    decision ? h("span", { class: "tag rank" }, decision.agreed ? t("✓ best") : t("rank {rank}/{options}", decision)) : null,
    decision && decision.expected_loss > 0 ? h("span", { class: "tag loss" }, t("loss {loss}", { loss: fmt(decision.expected_loss, 3) })) : null,
    at(marks.answers, i).map((a) => h("span", { class: "tag claim", title: t("seat {seat} answered {answer}; advice {best}", answerWords(a)) },
      `${seatName(a.seat)}: ${answerWords(a).answer} ${a.agreed ? "✓" : t("rank {rank}/{options}", a)}${a.expected_loss > 0 ? `, ${t("loss {loss}", { loss: fmt(a.expected_loss, 3) })}` : ""}`)));
}

/** The event list of the round, drawn once (a step only moves the selection). */
function drawEvents() {
  markRound();
  const deal = h("li", { role: "option", id: "event--1", "data-index": -1, "aria-selected": "false" }, t("the deal"));
  items = [deal, ...log().events.map(eventRow)];
  selected = null;
  fill($("#events"), items);
}

function tableAt(index) {
  const tables = (audit() && audit().tables) || [];
  if (index < 0) {
    const first = tables[0];
    const stock = log().stock ? log().stock.length : first ? first.stock + (log().events[0].type === "draw" ? 1 : 0) : null;
    return { hands: log().hands.map((hand) => [...hand]), exposed: log().hands.map(() => []), public: null,
      to_discard: null, stock, event: -1 };
  }
  return tables[Math.min(index, tables.length - 1)] || null;
}

function seatBox(table, seat) {
  const active = table.public ? table.public.seat === seat : table.to_discard === seat;
  const n = seatNumber(seat);
  const title = log().dealer === seat ? t("Seat {seat} · dealer", { seat: n }) : t("Seat {seat}", { seat: n });
  return h("div", { class: `seat${active ? " active" : ""}`, "data-seat": seat },
    h("h3", {}, title, h("span", { class: "muted" }, ` · ${t("{n} in hand", { n: table.hands[seat].length })}`),
      table.to_discard === seat ? h("span", { class: "tag rank" }, ` ${t("to discard")}`) : null),
    h("div", { class: "cards small" }, table.hands[seat].map((c) => cardElement(c))),
    table.exposed[seat].length ? h("div", { class: "melds" }, table.exposed[seat].map((m) => h("div", { class: "meld" },
      h("span", { class: "kind" }, kindName(m.kind, family())), h("span", { class: "cards small" }, m.cards.map((c) => cardElement(c)))))) : null);
}

function decisionBox(decision) {
  if (!decision) return null;
  return h("div", { class: "advice discard", "data-event": decision.event },
    h("strong", {}, `${t("Seat {seat} discarded", seated(decision))} `), cardElement(decision.card, { classes: "tiny" }),
    decision.agreed ? h("span", { class: "match" }, ` — ${t("the advised discard")}`) :
      h("span", {}, ` — ${t("rank {rank} of {options}; advice:", decision)} `, decision.best.map((c) => cardElement(c, { classes: "tiny" }))),
    h("div", {}, `${t("distance {distance} (best {best_distance})", decision)}; ${lossText(decision)}`),
    h("div", { class: "muted" }, ruleLinks(decision.reason)));
}

// the loss in its unit, and the two values it is the difference of (where the rule-set's value model applies)
function lossText(d) {
  const unit = unitName(d.loss_unit);
  const values = d.value === null || d.value === undefined ? "" : `; ${t("value {value}, advice {best}", { value: fmt(d.value, 3), best: fmt(d.best_value, 3) })}`;
  return `${t("expected loss {loss}", { loss: fmt(d.expected_loss, 3) })} ${unit}${values}`;
}

/** A claim decision with its answer, the advice and the seat's role in the game's words. */
export function answerWords(answer) {
  return { ...answer, seat: seatNumber(answer.seat), answer: kindName(answer.answer, family()),
    best: kindName(answer.best, family()), role: roleName(answer.role) };
}

function claimBox(answer) {
  return h("div", { class: "advice claim", "data-event": answer.event, "data-seat": answer.seat },
    h("strong", {}, `${t("Seat {seat} ({role}) answered {answer}", answerWords(answer))} `), answer.cards.length ? answer.cards.map((c) => cardElement(c, { classes: "tiny" })) : "",
    answer.agreed ? h("span", { class: "match" }, ` — ${t("the advised answer")}`) :
      h("span", {}, ` — ${t("rank {rank} of {options}; advice: {best}", answerWords(answer))} `, (answer.best_cards || []).map((c) => cardElement(c, { classes: "tiny" }))),
    h("div", {}, lossText(answer)), h("div", { class: "muted" }, ruleLinks(answer.reason)));
}

function publicCard(table) {
  if (!table || !table.public) return [h("span", { class: "muted" }, t("none"))];
  const p = table.public;
  const from = p.claims ? tn("{from}, 1 claim to resolve", "{from}, {n} claims to resolve", p.claims, { from: fromSeat(p.seat, p.source) })
    : fromSeat(p.seat, p.source);
  return [cardElement(p.card, { classes: "small" }), h("span", { class: "muted" }, ` ${from}`)];
}

/** Move the selection to row `index` and keep it in view inside the list (the page itself does not scroll). */
function select(index) {
  const row = items[index + 1];
  if (selected === row) return;
  if (selected) selected.setAttribute("aria-selected", "false");
  selected = row;
  if (!row) return;
  row.setAttribute("aria-selected", "true");
  $("#events").setAttribute("aria-activedescendant", row.id);
  keepInView(row, 8);
}

// Rows far from view are not laid out (content-visibility) and count with an estimated height until they are drawn:
// after a long jump the row lands a little off, so look again over the next frames until it stays put.
function keepInView(row, frames) {
  const list = $("#events");
  const top = row.offsetTop, bottom = top + row.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  if (frames > 0) requestAnimationFrame(() => { if (selected === row) keepInView(row, frames - 1); });
}

/** Where the table of an event stands when the round's audit is not at hand: being fetched, or what stopped it. */
function tableMissing() {
  const problem = auditProblem();
  return problem ? problemBlock(problem) : h("p", { class: "muted", role: "status" }, t("loading the table…"));
}

/** Show the event at `position`: the selection, the public card, the stock, the violations, the advice, the seats. */
export function show() {
  const start = performance.now();
  const events = log().events;
  const position = viewer.position = Math.max(-1, Math.min(viewer.position, events.length - 1));
  $("#position").textContent = position < 0 ? t("the deal · {n} events", { n: events.length })
    : t("event {k} / {n}", { k: position + 1, n: events.length });
  select(position);
  const table = tableAt(position);
  const tables = (audit() && audit().tables) || [];
  const stock = table && table.stock !== null && table.stock !== undefined ? table.stock : "?";
  fill($("#now"),
    h("div", { class: "row" },
      h("span", {}, `${t("Public card:")} `, publicCard(table)),
      h("span", { id: "stock" }, t("Stock: {n} cards", { n: stock }))),
    audit() && position >= tables.length ? h("p", { class: "problem" },
      t("The replay stopped at event {k}: the tables after it are not shown.", { k: tables.length })) : null,
    at(marks.violations, position).map((v) => h("div", { class: "violation-box", role: "alert", "data-code": v.code },
      ruleLinks(v.message), // the message names the seat, counted from 1 (the pages ask for it)
      h("div", { class: "muted" }, `${t("Rule:")} `, ruleLinks(v.rule)))),
    decisionBox(marks.decisions.get(position)),
    at(marks.answers, position).map(claimBox),
    at(marks.passes, position).map((p) => h("div", { class: "advice" }, p.passed === "win" ? t("Seat {seat} passed up a win", seated(p))
      : t("Seat {seat} passed up a claim ({claims})", { seat: seatNumber(p.seat), claims: (p.claims || []).map((k) => kindName(k, family())).join(", ") }))));
  fill($("#table"), table ? h("div", { class: "seats" }, table.hands.map((_, seat) => seatBox(table, seat)))
    : audit() ? h("p", {}, t("no table")) : tableMissing());
  $("#first").disabled = $("#back").disabled = position < 0;
  $("#forward").disabled = $("#last").disabled = position >= events.length - 1;
  for (const bar of $$("#analysis rect.bar")) bar.setAttribute("stroke", Number(bar.dataset.event) === position ? "#000" : "none");
  hooks.shown();
  performance.measure("replay-step", { start });
}

export function go(index) { viewer.position = index; show(); }

/** Show `round` (clamped to the game's) at `position`. */
export function moveTo(round, position) {
  const chosen = Math.min(Math.max(round, 0), viewer.logs.length - 1);
  viewer.position = position;
  if (chosen !== viewer.round) {
    viewer.round = chosen;
    $("#round").value = String(chosen);
    drawRound();
  }
  show();
}
const step = (by) => go(viewer.position + by);

// -- the audit and the settlement --------------------------------------------------------------------------
function outcomeText(outcome) {
  const parts = [outcomeName(outcome.type, family())];
  if (outcome.winner !== null && outcome.winner !== undefined) parts.push(t("winner seat {seat}", { seat: seatNumber(outcome.winner) }));
  if (outcome.points !== null && outcome.points !== undefined) parts.push(t("{n} points", { n: outcome.points }));
  return parts.join(", ");
}

function outcomeBlock(title, outcome) {
  if (!outcome) return h("div", {}, h("h3", {}, title), h("p", { class: "muted" }, t("none recorded")));
  return h("div", {}, h("h3", {}, title), h("p", {}, outcomeText(outcome)),
    outcome.deltas ? h("p", { class: "deltas" }, outcome.deltas.map((d, seat) => h("span", { class: `delta ${d > 0 ? "up" : d < 0 ? "down" : ""}` },
      t("seat {seat} {delta}", { seat: seatNumber(seat), delta: `${d > 0 ? "+" : ""}${d}` })))) : null,
    outcome.breakdown ? h("table", { class: "breakdown" }, h("tbody", {}, outcome.breakdown.map((line) =>
      h("tr", { class: `step-${line.step}` }, h("td", {}, ruleLinks(line.text)), h("td", { class: "num" }, line.points))))) : null);
}

function drawAudit() {
  const found = audit();
  // the round is drawn whole once its audit is at hand (or could not be read): until then the viewer is busy
  $("#viewer").setAttribute("aria-busy", String(!found && !auditProblem()));
  if (!found) {
    const problem = auditProblem();
    fill($("#audit"), problem ? problemBlock(problem) : h("p", { class: "muted", role: "status" }, t("checking the round against the rules…")));
    return;
  }
  const matches = found.recorded_result_matches;
  const n = found.violations.length;
  fill($("#audit"),
    h("p", {}, found.valid ? h("span", { class: "match" }, t("✓ every move is legal")) :
      h("span", { class: "mismatch" }, n === 1 ? t("✗ 1 violation") : t("✗ {n} violations", { n }))),
    n ? h("ul", { class: "violations" }, found.violations.map((v) => h("li", {},
      v.event !== null ? h("button", { type: "button", onclick: () => go(v.event) }, t("event {k}", { k: v.event + 1 })) : h("span", {}, t("result")),
      " ", h("span", { "data-code": v.code }, v.code === "result_mismatch"
        ? t("the recorded result differs from the recomputed one (below)") : ruleLinks(v.message)),
      v.rule ? h("span", { class: "muted" }, " (", ruleLinks(v.rule), ")") : null))) : null,
    h("div", { class: "settle" },
      outcomeBlock(t("Recomputed settlement"), found.outcome),
      outcomeBlock(t("Recorded result"), log().result)),
    h("p", {}, matches === null ? t("The log records no result.") : matches ? h("span", { class: "match" }, t("✓ the recorded result matches"))
      : h("span", { class: "mismatch" }, t("✗ the recorded result differs from the recomputed one"))));
}

/** A round's choice: its number, rule-set and outcome (the audit's; the recorded result's until it is at hand). */
function roundLabel(i) {
  const l = viewer.logs[i], found = viewer.audits[i];
  const ruleset = rulesetName(l.ruleset);
  if (!found) {
    return l.result ? t("{k}: {ruleset}, {outcome}", { k: i + 1, ruleset, outcome: outcomeName(l.result.type, familyOf(l.ruleset)) })
      : t("{k}: {ruleset}", { k: i + 1, ruleset });
  }
  const outcome = outcomeName(found.outcome.type, familyOf(l.ruleset));
  return found.valid ? t("{k}: {ruleset}, {outcome}", { k: i + 1, ruleset, outcome })
    : t("{k}: {ruleset}, {outcome} ({n} violations)", { k: i + 1, ruleset, outcome, n: found.violations.length });
}

function labelRound(i) {
  const option = $("#round").options[i];
  if (option) option.textContent = roundLabel(i);
}

function drawRounds() {
  const select_ = $("#round");
  fill(select_, ...viewer.logs.map((_, i) => h("option", { value: i }, roundLabel(i))));
  select_.value = String(viewer.round);
  $("#round-label").hidden = viewer.logs.length < 2;
  drawRound();
}

function drawRound() {
  const l = log();
  $("#round-summary").textContent = t("{ruleset} · {seats} seats · dealer seat {dealer} · {n} events",
    { ruleset: rulesetName(l.ruleset), seats: l.seats, dealer: seatNumber(l.dealer ?? 0), n: l.events.length });
  ensureAudit(viewer.round);
  drawAudit();
  drawEvents();
  if (viewer.analysis) drawPlots();
}

// -- the analysis ------------------------------------------------------------------------------------------
function reviewTable(entry) {
  // each heading says what it counts on its own: a phone shows them stacked, one under the other
  const head = [t("seat"), t("discards"), t("discards as advised"), t("expected loss on discards"), t("answers to a card on offer"),
    t("answers as advised"), t("expected loss on answers"), t("claims passed up"), t("wins passed up")];
  return scrollBox(t("Review per seat"), stacked(h("table", { class: "ranked review" },
    h("thead", {}, h("tr", {}, head.map((text) => h("th", { scope: "col" }, text)))),
    h("tbody", {}, entry.seats.map((s) => h("tr", {}, h("td", {}, seatName(s.seat)), h("td", { class: "num" }, s.review.decisions),
      h("td", { class: "num" }, pct(s.review.agreement_rate)), h("td", { class: "num", title: unitName(s.review.loss_unit) }, fmt(s.review.expected_loss, 3)),
      h("td", { class: "num" }, s.review.claims ? s.review.claims.decisions : "–"),
      h("td", { class: "num" }, s.review.claims ? pct(s.review.claims.agreement_rate) : "–"),
      h("td", { class: "num", title: s.review.claims ? unitName(s.review.claims.loss_unit) : "" }, s.review.claims ? fmt(s.review.claims.expected_loss, 3) : "–"),
      h("td", { class: "num" }, s.review.passed_claims.length), h("td", { class: "num" }, s.review.passed_wins.length)))))));
}

function drawPlots() {
  const { analysis, round } = viewer;
  const entry = analysis.logs[round];
  if (!entry || !$("#analysis")) return;
  const players = Object.entries(analysis.summary.players);
  const roundsAxis = [t("start"), ...viewer.logs.map((_, i) => t("round {k}", { k: i + 1 }))];
  // each player's running total after each of his games (the summary's trajectory), from 0
  const points = linePlot(players.map(([name, p]) => ({ name: playerName(name), values: [0, ...p.trajectory] })),
    roundsAxis, t("Points over the match, per player"), t("points"));
  // every decision of the round in event order: discards, then each seat's answer to a public card
  const decisions = entry.seats.flatMap((s) => [...(s.decisions || []), ...(s.claim_decisions || [])])
    .sort((a, b) => a.event - b.event || a.seat - b.seat);
  const losses = barPlot(decisions.map((d) => ({ label: String(d.event + 1), value: d.expected_loss, seat: d.seat, event: d.event,
    kind: d.answer === undefined ? t("discard {card}", d) : t("answer {answer} to {card}", answerWords(d)) })),
    t("Expected loss per decision, round {k}", { k: round + 1 }), t("expected loss"), go, viewer.position);
  fill($("#analysis"), entry.seats.every((s) => s.review) ? reviewTable(entry) : null,
    h("h3", {}, t("Points over the match")), legend(players.map(([name]) => playerName(name))), points,
    h("h3", {}, t("Expected loss per decision")), h("p", { class: "muted" }, t("Click a bar to go to its event.")),
    legend(entry.seats.map((s) => seatName(s.seat)), false), losses);
}

// -- wiring ------------------------------------------------------------------------------------------------
function typing(target) {
  return target && (["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || target.isContentEditable);
}

// the keys that step: arrows, j/k (forward/back), Page Up/Down (ten events), Home (the deal), End (the last event)
const MOVES = { ArrowRight: () => step(1), ArrowDown: () => step(1), j: () => step(1), ArrowLeft: () => step(-1),
  ArrowUp: () => step(-1), k: () => step(-1), PageDown: () => step(10), PageUp: () => step(-10),
  Home: () => go(-1), End: () => go(log().events.length - 1) };

/** Wire the round choice, the event list, the stepper's buttons and the keys (once a game is shown). */
export function wireViewer() {
  $("#round").addEventListener("change", (e) => {
    viewer.round = Number(e.target.value); viewer.position = -1;
    drawRound(); show(); hooks.roundChosen();
  });
  $("#events").addEventListener("click", (e) => {
    const row = e.target.closest("li[data-index]");
    if (row) go(Number(row.dataset.index));
  });
  $("#first").addEventListener("click", () => go(-1));
  $("#back").addEventListener("click", () => step(-1));
  $("#forward").addEventListener("click", () => step(1));
  $("#last").addEventListener("click", () => go(log().events.length - 1));
  document.addEventListener("keydown", (event) => {
    if (!viewer.logs.length || typing(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
    if (MOVES[event.key]) {
      event.preventDefault();
      MOVES[event.key]();
    }
  });
}
