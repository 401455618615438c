// The replay viewer: load logs, audit each with the table after every event, step through them, and annotate
// every decision with the replay analysis job's review. The view (the logs' source, the round, the event, the
// analysis mode) is kept in the URL fragment, so a link reopens it (replay-link.js).
import { $, $$, fill, FieldErrors, Problem, api, bindApiKey, fmt, guard, h, pageError, pct, post, problemBlock, rulesetLabel, rulesetName, runJob, scrollBox, stacked } from "./common.js";
import { cardElement } from "./cards.js";
import { shareUrl, t, tn } from "./i18n.js";
import { barPlot, legend, linePlot } from "./plots.js";
import { LINK_LIMIT, SIMULATION, TooLarge, UNPACKED_LIMIT, pack, readLink, unpack, writeLink } from "./replay-link.js";
import { ruleLinks } from "./rulelinks.js";
import { fromSeat, kindName, outcomeName, playerName, roleName, seatName, seatNumber, unitName } from "./words.js";

/** `item` with its `seat` counted as players count (from 1), for a message that names it. */
const seated = (item) => ({ ...item, seat: seatNumber(item.seat) });

const errors = new FieldErrors(document, "log");
let logs = [];        // the loaded logs
let audits = [];      // their audits (with tables), same order
let analysis = null;  // the replay job's result
let analysedMode = null; // the review mode that analysis ran with
let offered = null;   // the review mode a link offered its analysis in, until the visitor runs one
let round = 0;        // which log is shown
let position = -1;    // -1: the deal; else the index of the event shown
let source = null;    // where the logs came from, for the link: {log: packed} | {simulation: {...}} | {tooLarge: n}
let marks = null;     // the round's violations and review annotations by event (built once per round)
let items = [];       // the event list's rows: the deal, then each event (built once per round)
let selected = null;  // the row shown as selected

const log = () => logs[round];
// the game of a rule-set, as /v1/rulesets names it ("fourcolor" or "chan"): the words of its kinds and outcomes
const familyOf = (id) => (rulesets.find((r) => r.id === id) || {}).family;
const family = () => familyOf(log().ruleset);
const audit = () => audits[round];

// -- loading -----------------------------------------------------------------------------------------------
function logsOf(document_) {
  if (Array.isArray(document_)) return document_;
  if (document_ && Array.isArray(document_.logs)) return document_.logs;
  if (document_ && typeof document_ === "object") return [document_];
  throw new Problem(0, { code: "not_a_log", detail: t("expected a game log, a list of logs or {\"logs\": [...]}") });
}

/** Load the logs of a document: audit each, then show round `view.round` at `view.position`. */
async function load(documents, from, origin, view = { round: 0, position: -1 }) {
  const found = logsOf(documents);
  if (!found.length) throw new Problem(0, { code: "not_a_log", detail: t("the document holds no log") });
  const answers = [];
  for (let i = 0; i < found.length; i++) {
    try {
      answers.push(await post("/v1/audits?tables=true", found[i]));
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      if (found.length > 1) {
        error.detail = t("round {n}: {detail}", { n: i + 1, detail: error.detail });
        error.errors = Object.fromEntries(Object.entries(error.errors).map(([k, v]) => [`log.${i}.${k}`, v]));
      }
      throw error;
    }
  }
  logs = found; audits = answers; analysis = null; analysedMode = null; offered = null; source = origin;
  round = Math.min(Math.max(view.round, 0), logs.length - 1);
  position = view.position;
  for (const name of ["file", "paste", "simulate", "log", "analysis"]) errors.clear(name);
  errors.clear(from);
  $("#viewer").hidden = false;
  fill($("#analysis"));
  $("#analysis-status").textContent = "";
  $("#analysis-progress").hidden = true;
  drawOffer();
  drawRounds();
  show();
  writeUrl();
  $("#viewer").scrollIntoView({ block: "start" }); // the loaders are done with: show the round and its events
  $("#events").focus({ preventScroll: true }); // the arrow keys step from here on
}

/** Where a pasted or read log comes from, for the link: the log itself when it fits one. */
async function logSource(parsed) {
  const packed = await pack(JSON.stringify(parsed));
  return packed.length <= LINK_LIMIT ? { log: packed } : { tooLarge: packed.length };
}

async function loadText(text, from, view) {
  let parsed;
  try { parsed = JSON.parse(text); } catch (error) {
    const detail = t("not JSON: {message}", { message: error.message });
    throw new Problem(0, { code: "malformed_json", detail, errors: { [from]: [detail] } });
  }
  await load(parsed, from, await logSource(parsed), view);
}

async function simulate(view) {
  const simulation = { ruleset: $("#sim-ruleset").value, seats: Number($("#sim-seats").value),
    seed: Number($("#sim-seed").value), policy: $("#sim-policy").value, rounds: Number($("#sim-rounds").value) };
  const answer = await post("/v1/simulations", simulation);
  await load(answer.logs, "simulate", { simulation }, view);
}

function reportLoad(from) {
  return async (work) => {
    try { await work(); } catch (error) {
      const problem = error instanceof Problem ? error : new Problem(0, { detail: String(error) });
      if (!Object.keys(problem.errors).length) problem.errors = { [from]: [problem.detail] };
      errors.set(from, problem);
    }
  };
}

// -- the link ----------------------------------------------------------------------------------------------
let written = "";    // the fragment this page wrote last (a different one was typed or pasted in)
let pending = null;  // a URL update waiting for the stepping to pause

function view() {
  const mode = $("#review-mode").value;
  return { source: source && !source.tooLarge ? source : null, round, position, mode,
    analysed: analysis ? analysedMode === mode : offered === mode };
}

/** Put the view in the URL: replaced, not pushed, so Back leaves the viewer instead of undoing each step. */
function writeUrl() {
  clearTimeout(pending); pending = null;
  if (!logs.length) return;
  written = writeLink(view());
  if (written !== location.hash) history.replaceState(history.state, "", written);
  const link = $("#share-link");
  link.value = shareUrl(); // the reader opens it in their own language
  const shareable = !source.tooLarge;
  link.hidden = !shareable;
  $("#copy-link").disabled = !shareable;
  $("#share-note").textContent = shareable ? "" : t(
    "This log is too large for a link ({size} KB packed; a link holds at most {limit} KB): send the file with the link's event number instead.",
    { size: fmt(source.tooLarge / 1024, 1), limit: LINK_LIMIT / 1024 });
}

// while stepping, the URL follows once the keys pause (browsers throttle a burst of history updates)
function scheduleUrl() {
  clearTimeout(pending);
  pending = setTimeout(writeUrl, 250);
}

async function copyLink() {
  writeUrl();
  const link = $("#share-link"), note = $("#share-note");
  try {
    await navigator.clipboard.writeText(link.value);
    note.textContent = t("Link copied.");
  } catch {
    link.select(); // no clipboard (a page not served over HTTPS): leave the link selected to copy by hand
    note.textContent = document.execCommand && document.execCommand("copy") ? t("Link copied.") : t("Copy the selected link.");
  }
}

/** What the reader is told about a link whose log is too large to open (a TooLarge error). */
function tooLargeText(error) {
  return error.packed === null
    ? t("This link's log is too large to open (over {limit} MB unpacked, more than the service accepts): it was not loaded.",
      { limit: UNPACKED_LIMIT / 1024 / 1024 })
    : t("This link is too large to open ({size} KB; a link holds at most {limit} KB): its log was not loaded.",
      { size: Math.ceil(error.packed / 1024), limit: LINK_LIMIT / 1024 });
}

/**
 * Open the view the URL's fragment describes (on arrival, or when another link is pasted into this tab). A link
 * never runs the analysis by itself: it is a job that spends the visitor's quota, so it is offered for a click.
 */
async function openLink() {
  const linked = readLink(location.hash);
  written = location.hash;
  if (linked.mode) $("#review-mode").value = linked.mode;
  if (!linked.source) return;
  const at = { round: linked.round, position: linked.position };
  const before = logs;
  if (linked.source.log) {
    await reportLoad("paste")(async () => {
      let text;
      try { text = await unpack(linked.source.log); } catch (error) {
        if (error instanceof TooLarge) throw new Problem(0, { code: "link_too_large", detail: tooLargeText(error) });
        throw new Problem(0, { code: "broken_link", detail: t("the link's log cannot be read: the link was cut or changed") });
      }
      $("#paste").value = text;
      await loadText(text, "paste", at);
    });
  } else {
    const fields = { ruleset: "#sim-ruleset", seats: "#sim-seats", seed: "#sim-seed", policy: "#sim-policy", rounds: "#sim-rounds" };
    for (const k of SIMULATION) $(fields[k]).value = linked.source.simulation[k];
    await reportLoad("simulate")(() => simulate(at));
  }
  if (linked.analysed && logs !== before) {
    offered = $("#review-mode").value;
    drawOffer();
    writeUrl();
  }
}

/** Say that the link was shared with its analysis in the review mode shown, and that a click runs it. */
function drawOffer() {
  const note = $("#analysis-offer");
  note.hidden = analysis !== null || offered !== $("#review-mode").value;
  note.textContent = note.hidden ? "" : t("This link was shared with its analysis: click Analyse to run it.");
}

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
  const reviewed = analysis ? analysis.logs[round].seats : [];
  marks = {
    violations: grouped(audit().violations.filter((v) => v.event !== null).map((v) => [v.event, v])),
    decisions: new Map(reviewed.flatMap((s) => (s.decisions || []).map((d) => [d.event, d]))),
    answers: grouped(reviewed.flatMap((s) => (s.claim_decisions || []).map((d) => [d.event, d]))),
    passes: grouped(reviewed.flatMap((s) => ((s.review && s.review.passes) || []).map((p) => [p.event, { seat: s.seat, ...p }]))),
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
  const tables = audit().tables || [];
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
function answerWords(answer) {
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

/** Show the event at `position`: the selection, the public card, the stock, the violations, the advice, the seats. */
function show() {
  const start = performance.now();
  const events = log().events;
  position = Math.max(-1, Math.min(position, events.length - 1));
  $("#position").textContent = position < 0 ? t("the deal · {n} events", { n: events.length })
    : t("event {k} / {n}", { k: position + 1, n: events.length });
  select(position);
  const table = tableAt(position);
  const tables = audit().tables || [];
  const stock = table && table.stock !== null && table.stock !== undefined ? table.stock : "?";
  fill($("#now"),
    h("div", { class: "row" },
      h("span", {}, `${t("Public card:")} `, publicCard(table)),
      h("span", { id: "stock" }, t("Stock: {n} cards", { n: stock }))),
    position >= tables.length ? h("p", { class: "problem" },
      t("The replay stopped at event {k}: the tables after it are not shown.", { k: tables.length })) : null,
    at(marks.violations, position).map((v) => h("div", { class: "violation-box", role: "alert", "data-code": v.code },
      ruleLinks(v.message), // the message names the seat, counted from 1 (the pages ask for it)
      h("div", { class: "muted" }, `${t("Rule:")} `, ruleLinks(v.rule)))),
    decisionBox(marks.decisions.get(position)),
    at(marks.answers, position).map(claimBox),
    at(marks.passes, position).map((p) => h("div", { class: "advice" }, p.passed === "win" ? t("Seat {seat} passed up a win", seated(p))
      : t("Seat {seat} passed up a claim ({claims})", { seat: seatNumber(p.seat), claims: (p.claims || []).map((k) => kindName(k, family())).join(", ") }))));
  fill($("#table"), table ? h("div", { class: "seats" }, table.hands.map((_, seat) => seatBox(table, seat))) : h("p", {}, t("no table")));
  $("#first").disabled = $("#back").disabled = position < 0;
  $("#forward").disabled = $("#last").disabled = position >= events.length - 1;
  for (const bar of $$("#analysis rect.bar")) bar.setAttribute("stroke", Number(bar.dataset.event) === position ? "#000" : "none");
  scheduleUrl();
  performance.measure("replay-step", { start });
}

function go(index) { position = index; show(); }
const step = (by) => go(position + by);

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

function drawRounds() {
  const select_ = $("#round");
  fill(select_, ...logs.map((l, i) => h("option", { value: i }, audits[i].valid
    ? t("{k}: {ruleset}, {outcome}", { k: i + 1, ruleset: rulesetName(l.ruleset), outcome: outcomeName(audits[i].outcome.type, familyOf(l.ruleset)) })
    : t("{k}: {ruleset}, {outcome} ({n} violations)", { k: i + 1, ruleset: rulesetName(l.ruleset), outcome: outcomeName(audits[i].outcome.type, familyOf(l.ruleset)), n: audits[i].violations.length }))));
  select_.value = String(round);
  $("#round-label").hidden = logs.length < 2;
  drawRound();
}

function drawRound() {
  const l = log();
  $("#round-summary").textContent = t("{ruleset} · {seats} seats · dealer seat {dealer} · {n} events",
    { ruleset: rulesetName(l.ruleset), seats: l.seats, dealer: seatNumber(l.dealer ?? 0), n: l.events.length });
  drawAudit();
  drawEvents();
  if (analysis) drawPlots();
}

// -- the analysis job --------------------------------------------------------------------------------------
async function analyse() {
  const button = $("#analyse"), bar = $("#analysis-progress"), status = $("#analysis-status");
  const mode = $("#review-mode").value;
  button.disabled = true; bar.hidden = false; bar.value = 0; status.textContent = t("queued…");
  offered = null;
  drawOffer();
  try {
    analysis = await runJob("/v1/replays", { logs, review: { mode } }, (fraction, job) => {
      bar.value = fraction;
      const p = job.progress;
      status.textContent = mode === "deep" ? t("{status}: {done} / {total} decisions", { status: job.status, done: p.decisions_done, total: p.decisions_total })
        : t("{status}: {done} / {total} events", { status: job.status, done: p.events_done, total: p.events_total });
    }, (p) => (mode === "deep" ? [p.decisions_done || 0, p.decisions_total || 0] : [p.events_done || 0, p.events_total || 0]));
    analysedMode = mode;
    errors.clear("analysis");
    status.textContent = t("finished: every discard is annotated in the event list");
    drawEvents();
    drawPlots();
    show();
    writeUrl();
  } catch (error) {
    const problem = error instanceof Problem ? error : new Problem(0, { detail: String(error) });
    errors.set("analysis", problem);
    bar.hidden = true; status.textContent = "";
    fill($("#analysis"), problemBlock(problem));
  } finally {
    button.disabled = false;
  }
}

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
  const entry = analysis.logs[round];
  const players = Object.entries(analysis.summary.players);
  const roundsAxis = [t("start"), ...logs.map((_, i) => t("round {k}", { k: i + 1 }))];
  // each player's running total after each of his games (the summary's trajectory), from 0
  const points = linePlot(players.map(([name, p]) => ({ name: playerName(name), values: [0, ...p.trajectory] })),
    roundsAxis, t("Points over the match, per player"), t("points"));
  // every decision of the round in event order: discards, then each seat's answer to a public card
  const decisions = entry.seats.flatMap((s) => [...(s.decisions || []), ...(s.claim_decisions || [])])
    .sort((a, b) => a.event - b.event || a.seat - b.seat);
  const losses = barPlot(decisions.map((d) => ({ label: String(d.event + 1), value: d.expected_loss, seat: d.seat, event: d.event,
    kind: d.answer === undefined ? t("discard {card}", d) : t("answer {answer} to {card}", answerWords(d)) })),
    t("Expected loss per decision, round {k}", { k: round + 1 }), t("expected loss"), go, position);
  fill($("#analysis"), reviewTable(entry),
    h("h3", {}, t("Points over the match")), legend(players.map(([name]) => playerName(name))), points,
    h("h3", {}, t("Expected loss per decision")), h("p", { class: "muted" }, t("Click a bar to go to its event.")),
    legend(entry.seats.map((s) => seatName(s.seat)), false), losses);
}

// -- wiring ------------------------------------------------------------------------------------------------
function typing(target) {
  return target && (["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || target.isContentEditable);
}

let rulesets = [];

async function loadRulesets() {
  rulesets = (await api("GET", "/v1/rulesets")).data.rulesets;
  const chosen = $("#sim-ruleset").value;
  fill($("#sim-ruleset"), ...rulesets.map((r) => h("option", { value: r.id }, rulesetLabel(r))));
  if (chosen) $("#sim-ruleset").value = chosen;
}

// the keys that step: arrows, j/k (forward/back), Page Up/Down (ten events), Home (the deal), End (the last event)
const MOVES = { ArrowRight: () => step(1), ArrowDown: () => step(1), j: () => step(1), ArrowLeft: () => step(-1),
  ArrowUp: () => step(-1), k: () => step(-1), PageDown: () => step(10), PageUp: () => step(-10),
  Home: () => go(-1), End: () => go(log().events.length - 1) };

function wire() {
  bindApiKey($("#api-key"), () => { pageError(null); if (!rulesets.length) guard(start)(); });
  $("#sim-ruleset").addEventListener("change", () => {
    const rs = rulesets.find((r) => r.id === $("#sim-ruleset").value);
    const seats = $("#sim-seats");
    seats.min = rs.seats.min; seats.max = rs.seats.max;
    seats.value = Math.min(Math.max(Number(seats.value), rs.seats.min), rs.seats.max);
  });
  $("#file").addEventListener("change", () => reportLoad("file")(async () => {
    const file = $("#file").files[0];
    if (file) await loadText(await file.text(), "file");
  }));
  $("#load-paste").addEventListener("click", () => reportLoad("paste")(() => loadText($("#paste").value, "paste")));
  $("#simulate").addEventListener("click", () => reportLoad("simulate")(() => simulate()));
  $("#round").addEventListener("change", (e) => { round = Number(e.target.value); position = -1; drawRound(); show(); writeUrl(); });
  $("#events").addEventListener("click", (e) => {
    const row = e.target.closest("li[data-index]");
    if (row) go(Number(row.dataset.index));
  });
  $("#first").addEventListener("click", () => go(-1));
  $("#back").addEventListener("click", () => step(-1));
  $("#forward").addEventListener("click", () => step(1));
  $("#last").addEventListener("click", () => go(log().events.length - 1));
  $("#analyse").addEventListener("click", guard(analyse));
  $("#review-mode").addEventListener("change", () => { drawOffer(); writeUrl(); });
  $("#copy-link").addEventListener("click", guard(copyLink));
  document.addEventListener("keydown", (event) => {
    if (!logs.length || typing(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
    if (MOVES[event.key]) {
      event.preventDefault();
      MOVES[event.key]();
    }
  });
  window.addEventListener("hashchange", () => { if (location.hash !== written) guard(openLink)(); });
}

// the rule-sets first: a link to a simulation names one of them
async function start() {
  await loadRulesets();
  await openLink();
}

wire();
guard(start)();
