// The replay viewer: load logs, audit each with the table after every event, step through them, and annotate
// every decision with the replay analysis job's review.
import { $, fill, FieldErrors, Problem, api, bindApiKey, fmt, guard, h, pageError, pct, post, problemBlock, runJob } from "./common.js";
import { cardElement } from "./cards.js";
import { barPlot, legend, linePlot } from "./plots.js";
import { ruleLinks } from "./rulelinks.js";

const errors = new FieldErrors(document, "log");
let logs = [];        // the loaded logs
let audits = [];      // their audits (with tables), same order
let analysis = null;  // the replay job's result
let round = 0;        // which log is shown
let position = -1;    // -1: the deal; else the index of the event shown

const log = () => logs[round];
const audit = () => audits[round];

// -- loading -----------------------------------------------------------------------------------------------
function logsOf(document_) {
  if (Array.isArray(document_)) return document_;
  if (document_ && Array.isArray(document_.logs)) return document_.logs;
  if (document_ && typeof document_ === "object") return [document_];
  throw new Problem(0, { code: "not_a_log", detail: "expected a game log, a list of logs or {\"logs\": [...]}" });
}

async function load(documents, source) {
  const found = logsOf(documents);
  if (!found.length) throw new Problem(0, { code: "not_a_log", detail: "the document holds no log" });
  const answers = [];
  for (let i = 0; i < found.length; i++) {
    try {
      answers.push(await post("/v1/audits?tables=true", found[i]));
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      if (found.length > 1) {
        error.detail = `round ${i + 1}: ${error.detail}`;
        error.errors = Object.fromEntries(Object.entries(error.errors).map(([k, v]) => [`log.${i}.${k}`, v]));
      }
      throw error;
    }
  }
  logs = found; audits = answers; analysis = null; round = 0; position = -1;
  for (const name of ["file", "paste", "simulate", "log", "analysis"]) errors.clear(name);
  errors.clear(source);
  $("#viewer").hidden = false;
  fill($("#analysis"));
  $("#analysis-status").textContent = "";
  $("#analysis-progress").hidden = true;
  drawRounds();
  show();
  $("#events").focus({ preventScroll: true }); // the arrow keys step from here on
}

async function loadText(text, source) {
  let parsed;
  try { parsed = JSON.parse(text); } catch (error) {
    throw new Problem(0, { code: "malformed_json", detail: `not JSON: ${error.message}`, errors: { [source]: [`not JSON: ${error.message}`] } });
  }
  await load(parsed, source);
}

function reportLoad(source) {
  return async (work) => {
    try { await work(); } catch (error) {
      const problem = error instanceof Problem ? error : new Problem(0, { detail: String(error) });
      if (!Object.keys(problem.errors).length) problem.errors = { [source]: [problem.detail] };
      errors.set(source, problem);
    }
  };
}

// -- stepping ----------------------------------------------------------------------------------------------
function eventText(event) {
  const seat = `seat ${event.seat}`;
  switch (event.type) {
    case "discard": return [`${seat} discards`, event.card];
    case "draw": return [`${seat} turns up`, event.card || "the next stock card"];
    case "claim": return [`${seat} claims ${event.meld}`, ...(event.cards || [])];
    case "capture": return [`${seat} captures ${event.meld}`, ...(event.cards || [])];
    case "chiu": return [`${seat} Chíu`, ...(event.cards || [])];
    case "hu": return [`${seat} declares hu`];
    case "win": return [`${seat} wins`];
    case "pass": return [`${seat} passes`];
    default: return [`${seat} ${event.type}`];
  }
}

function violationsAt(index) {
  return audit().violations.filter((v) => v.event === index);
}

function decisionsOf() {
  if (!analysis) return new Map();
  const entry = analysis.logs[round];
  const map = new Map();
  for (const seat of entry.seats) for (const decision of seat.decisions || []) map.set(decision.event, decision);
  return map;
}

function claimDecisionsOf() {
  const map = new Map();
  if (!analysis) return map;
  for (const seat of analysis.logs[round].seats) {
    for (const decision of seat.claim_decisions || []) {
      if (!map.has(decision.event)) map.set(decision.event, []);
      map.get(decision.event).push(decision);
    }
  }
  return map;
}

function passesOf() {
  if (!analysis) return new Map();
  const map = new Map();
  for (const seat of analysis.logs[round].seats) {
    for (const pass of (seat.review && seat.review.passes) || []) {
      if (!map.has(pass.event)) map.set(pass.event, []);
      map.get(pass.event).push({ seat: seat.seat, ...pass });
    }
  }
  return map;
}

function drawEvents() {
  const decisions = decisionsOf();
  const answers = claimDecisionsOf();
  const list = $("#events");
  const deal = h("li", { role: "option", id: "event--1", "data-index": -1, "aria-selected": String(position === -1) }, "the deal");
  deal.addEventListener("click", () => go(-1));
  fill(list, deal, ...log().events.map((event, i) => {
    const [text, ...codes] = eventText(event);
    const broken = violationsAt(i);
    const decision = decisions.get(i);
    const item = h("li", { role: "option", id: `event-${i}`, "data-index": i, "aria-selected": String(position === i),
      class: broken.length ? "violation" : "" },
      h("span", { class: "muted" }, `${i}.`), text, codes.map((c) => cardElement(c, { classes: "tiny" })),
      broken.map((v) => h("span", { class: "tag bad" }, `⚠ ${v.code}`)),
      decision ? h("span", { class: "tag rank" }, decision.agreed ? "✓ best" : `rank ${decision.rank}/${decision.options}`) : null,
      decision && decision.expected_loss > 0 ? h("span", { class: "tag loss" }, `loss ${fmt(decision.expected_loss, 3)}`) : null,
      (answers.get(i) || []).map((a) => h("span", { class: "tag claim", title: `seat ${a.seat} answered ${a.answer}; advice ${a.best}` },
        `S${a.seat} ${a.answer}: ${a.agreed ? "✓" : `rank ${a.rank}/${a.options}`}${a.expected_loss > 0 ? `, loss ${fmt(a.expected_loss, 3)}` : ""}`)));
    item.addEventListener("click", () => go(i));
    return item;
  }));
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
  const dealer = log().dealer === seat ? " · dealer" : "";
  return h("div", { class: `seat${active ? " active" : ""}`, "data-seat": seat },
    h("h3", {}, `Seat ${seat}${dealer}`, h("span", { class: "muted" }, ` · ${table.hands[seat].length} in hand`),
      table.to_discard === seat ? h("span", { class: "tag rank" }, " to discard") : null),
    h("div", { class: "cards small" }, table.hands[seat].map((c) => cardElement(c))),
    table.exposed[seat].length ? h("div", { class: "melds" }, table.exposed[seat].map((m) => h("div", { class: "meld" },
      h("span", { class: "kind" }, m.kind), h("span", { class: "cards small" }, m.cards.map((c) => cardElement(c)))))) : null);
}

function decisionBox(decision) {
  if (!decision) return null;
  return h("div", { class: "advice discard", "data-event": decision.event },
    h("strong", {}, `Seat ${decision.seat} discarded `), cardElement(decision.card, { classes: "tiny" }),
    decision.agreed ? h("span", { class: "match" }, " — the advised discard") :
      h("span", {}, ` — rank ${decision.rank} of ${decision.options}; advice: `, decision.best.map((c) => cardElement(c, { classes: "tiny" }))),
    h("div", {}, `distance ${decision.distance} (best ${decision.best_distance}); ${lossText(decision)}`),
    h("div", { class: "muted" }, decision.reason));
}

// the loss in its unit, and the two values it is the difference of (where the rule-set's value model applies)
function lossText(d) {
  const unit = d.loss_unit === "expected_gain" ? "in one-card expected gain" : d.loss_unit || "";
  const values = d.value === null || d.value === undefined ? "" : `; value ${fmt(d.value, 3)}, advice ${fmt(d.best_value, 3)}`;
  return `expected loss ${fmt(d.expected_loss, 3)} ${unit}${values}`;
}

function claimBox(answer) {
  return h("div", { class: "advice claim", "data-event": answer.event, "data-seat": answer.seat },
    h("strong", {}, `Seat ${answer.seat} (${answer.role}) answered ${answer.answer} `), answer.cards.length ? answer.cards.map((c) => cardElement(c, { classes: "tiny" })) : "",
    answer.agreed ? h("span", { class: "match" }, " — the advised answer") :
      h("span", {}, ` — rank ${answer.rank} of ${answer.options}; advice: ${answer.best} `, (answer.best_cards || []).map((c) => cardElement(c, { classes: "tiny" }))),
    h("div", {}, lossText(answer)), h("div", { class: "muted" }, answer.reason));
}

function show() {
  const events = log().events;
  position = Math.max(-1, Math.min(position, events.length - 1));
  $("#position").textContent = position < 0 ? `the deal · ${events.length} events` : `event ${position + 1} / ${events.length}`;
  drawEvents();
  const selected = $(`#event-${position < 0 ? "-1" : position}`);
  if (selected) {
    selected.scrollIntoView({ block: "nearest" });
    $("#events").setAttribute("aria-activedescendant", selected.id);
  }
  const table = tableAt(position);
  const tables = audit().tables || [];
  const stopped = position >= tables.length;
  const broken = position >= 0 ? violationsAt(position) : [];
  const passes = passesOf().get(position) || [];
  fill($("#now"),
    h("div", { class: "row" },
      h("span", {}, "Public card: ", table && table.public ? cardElement(table.public.card, { classes: "small" }) : h("span", { class: "muted" }, "none"),
        table && table.public ? h("span", { class: "muted" }, ` from seat ${table.public.seat}'s ${table.public.source}${table.public.claims ? `, ${table.public.claims} claim(s) to resolve` : ""}`) : ""),
      h("span", { id: "stock" }, `Stock: ${table && table.stock !== null && table.stock !== undefined ? table.stock : "?"} cards`)),
    stopped && position >= 0 ? h("p", { class: "problem" }, `The replay stopped at event ${tables.length - 1}: the table after it is not shown.`) : null,
    broken.map((v) => h("div", { class: "violation-box", role: "alert", "data-code": v.code },
      h("code", {}, v.code), ` seat ${v.seat}: ${v.message}`, h("div", { class: "muted" }, "Rule: ", ruleLinks(v.rule)))),
    decisionBox(decisionsOf().get(position)),
    (claimDecisionsOf().get(position) || []).map(claimBox),
    passes.map((p) => h("div", { class: "advice" }, `Seat ${p.seat} passed up ${p.passed === "win" ? "a win" : `a claim (${(p.claims || []).join(", ")})`}`)));
  fill($("#table"), table ? h("div", { class: "seats" }, table.hands.map((_, seat) => seatBox(table, seat))) : h("p", {}, "no table"));
  $("#first").disabled = $("#back").disabled = position < 0;
  $("#forward").disabled = $("#last").disabled = position >= events.length - 1;
  if (analysis) drawPlots();
}

function go(index) { position = index; show(); }
const step = (by) => go(position + by);

// -- the audit and the settlement --------------------------------------------------------------------------
function outcomeBlock(title, outcome) {
  if (!outcome) return h("div", {}, h("h3", {}, title), h("p", { class: "muted" }, "none recorded"));
  return h("div", {}, h("h3", {}, title),
    h("p", {}, `${outcome.type}${outcome.winner !== null && outcome.winner !== undefined ? `, winner seat ${outcome.winner}` : ""}${outcome.points !== null && outcome.points !== undefined ? `, ${outcome.points} points` : ""}`),
    outcome.deltas ? h("p", {}, outcome.deltas.map((d, seat) => h("span", { class: `delta ${d > 0 ? "up" : d < 0 ? "down" : ""}` }, `seat ${seat} ${d > 0 ? "+" : ""}${d}`))) : null,
    outcome.breakdown ? h("table", { class: "breakdown" }, h("tbody", {}, outcome.breakdown.map((line) =>
      h("tr", { class: `step-${line.step}` }, h("td", {}, line.text), h("td", { class: "num" }, line.points))))) : null);
}

function drawAudit() {
  const found = audit();
  const matches = found.recorded_result_matches;
  fill($("#audit"),
    h("p", {}, found.valid ? h("span", { class: "match" }, "✓ every move is legal") :
      h("span", { class: "mismatch" }, `✗ ${found.violations.length} violation${found.violations.length === 1 ? "" : "s"}`)),
    found.violations.length ? h("ul", { class: "violations" }, found.violations.map((v) => h("li", {},
      v.event !== null ? h("button", { type: "button", onclick: () => go(v.event) }, `event ${v.event}`) : h("span", {}, "result"),
      " ", h("code", {}, v.code), ` ${v.message} `, h("span", { class: "muted" }, "(", ruleLinks(v.rule), ")")))) : null,
    h("div", { class: "settle" },
      outcomeBlock("Recomputed settlement", found.outcome),
      outcomeBlock("Recorded result", log().result)),
    h("p", {}, matches === null ? "The log records no result." : matches ? h("span", { class: "match" }, "✓ the recorded result matches")
      : h("span", { class: "mismatch" }, "✗ the recorded result differs from the recomputed one")));
}

function drawRounds() {
  const select = $("#round");
  fill(select, ...logs.map((l, i) => h("option", { value: i },
    `${i + 1}: ${l.ruleset}, ${audits[i].outcome.type}${audits[i].valid ? "" : ` (${audits[i].violations.length} violations)`}`)));
  select.value = String(round);
  $("#round-label").hidden = logs.length < 2;
  drawRound();
}

function drawRound() {
  const l = log();
  $("#round-summary").textContent = `${l.ruleset} · ${l.seats} seats · dealer seat ${l.dealer ?? 0} · ${l.events.length} events`;
  drawAudit();
}

// -- the analysis job --------------------------------------------------------------------------------------
async function analyse() {
  const button = $("#analyse"), bar = $("#analysis-progress"), status = $("#analysis-status");
  const mode = $("#review-mode").value;
  button.disabled = true; bar.hidden = false; bar.value = 0; status.textContent = "queued…";
  try {
    analysis = await runJob("/v1/replays", { logs, review: { mode } }, (fraction, job) => {
      bar.value = fraction;
      const p = job.progress;
      status.textContent = mode === "deep" ? `${job.status}: ${p.decisions_done} / ${p.decisions_total} decisions`
        : `${job.status}: ${p.events_done} / ${p.events_total} events`;
    }, (p) => (mode === "deep" ? [p.decisions_done || 0, p.decisions_total || 0] : [p.events_done || 0, p.events_total || 0]));
    errors.clear("analysis");
    status.textContent = "finished: every discard is annotated in the event list";
    show();
  } catch (error) {
    const problem = error instanceof Problem ? error : new Problem(0, { detail: String(error) });
    errors.set("analysis", problem);
    bar.hidden = true; status.textContent = "";
    fill($("#analysis"), problemBlock(problem));
  } finally {
    button.disabled = false;
  }
}

function drawPlots() {
  const entry = analysis.logs[round];
  const players = Object.entries(analysis.summary.players);
  const roundsAxis = ["start", ...logs.map((_, i) => `round ${i + 1}`)];
  // each player's running total after each of his games (the summary's trajectory), from 0
  const points = linePlot(players.map(([name, p]) => ({ name, values: [0, ...p.trajectory] })),
    roundsAxis, "Points over the match, per player", "points");
  // every decision of the round in event order: discards, then each seat's answer to a public card
  const decisions = entry.seats.flatMap((s) => [...(s.decisions || []), ...(s.claim_decisions || [])])
    .sort((a, b) => a.event - b.event || a.seat - b.seat);
  const losses = barPlot(decisions.map((d) => ({ label: String(d.event), value: d.expected_loss, seat: d.seat, event: d.event,
    kind: d.answer === undefined ? `discard ${d.card}` : `answer ${d.answer} to ${d.card}` })),
    `Expected loss per decision, round ${round + 1}`, "expected loss", go, position);
  fill($("#analysis"),
    h("div", { class: "scroll" }, h("table", { class: "ranked" },
      h("thead", {}, h("tr", {}, ["seat", "discards", "agreed with the advice", "expected loss", "claim answers", "agreed", "expected loss", "passed claims", "passed wins"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, entry.seats.map((s) => h("tr", {}, h("td", {}, `seat ${s.seat}`), h("td", { class: "num" }, s.review.decisions),
        h("td", { class: "num" }, pct(s.review.agreement_rate)), h("td", { class: "num", title: s.review.loss_unit || "" }, fmt(s.review.expected_loss, 3)),
        h("td", { class: "num" }, s.review.claims ? s.review.claims.decisions : "–"),
        h("td", { class: "num" }, s.review.claims ? pct(s.review.claims.agreement_rate) : "–"),
        h("td", { class: "num", title: s.review.claims ? s.review.claims.loss_unit || "" : "" }, s.review.claims ? fmt(s.review.claims.expected_loss, 3) : "–"),
        h("td", { class: "num" }, s.review.passed_claims.length), h("td", { class: "num" }, s.review.passed_wins.length)))))),
    h("h3", {}, "Points over the match"), legend(players.map(([name]) => name)), points,
    h("h3", {}, "Expected loss per decision"), h("p", { class: "muted" }, "Click a bar to go to its event."),
    legend(entry.seats.map((s) => `seat ${s.seat}`), false), losses);
}

// -- wiring ------------------------------------------------------------------------------------------------
function typing(target) {
  return target && (["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || target.isContentEditable);
}

let rulesets = [];

async function loadRulesets() {
  rulesets = (await api("GET", "/v1/rulesets")).data.rulesets;
  fill($("#sim-ruleset"), ...rulesets.map((r) => h("option", { value: r.id }, `${r.id} — ${r.game}`)));
}

function wire() {
  bindApiKey($("#api-key"), () => { pageError(null); if (!rulesets.length) guard(loadRulesets)(); });
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
  $("#simulate").addEventListener("click", () => reportLoad("simulate")(async () => {
    const answer = await post("/v1/simulations", { ruleset: $("#sim-ruleset").value, seats: Number($("#sim-seats").value),
      seed: Number($("#sim-seed").value), policy: $("#sim-policy").value, rounds: Number($("#sim-rounds").value) });
    await load(answer.logs, "simulate");
  }));
  $("#round").addEventListener("change", (e) => { round = Number(e.target.value); position = -1; drawRound(); show(); });
  $("#first").addEventListener("click", () => go(-1));
  $("#back").addEventListener("click", () => step(-1));
  $("#forward").addEventListener("click", () => step(1));
  $("#last").addEventListener("click", () => go(log().events.length - 1));
  $("#analyse").addEventListener("click", guard(analyse));
  document.addEventListener("keydown", (event) => {
    if (!logs.length || typing(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
    const moves = { ArrowRight: () => step(1), ArrowDown: () => step(1), ArrowLeft: () => step(-1), ArrowUp: () => step(-1),
      Home: () => go(-1), End: () => go(log().events.length - 1) };
    if (moves[event.key]) {
      event.preventDefault();
      moves[event.key]();
    }
  });
}

wire();
guard(loadRulesets)();
