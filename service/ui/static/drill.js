// Drills: GET /v1/drills deals a position from a seeded round the advice plays; the drill's own request
// (/v1/discards or /v1/claims) ranks its options. The player picks a discard or an answer to the public card; the
// grade is the advice's value loss: the value of the advised option (ranked first) minus the value of the one
// chosen (the values never rise along the ranking), an answer worth as much being right. The URL holds the drill set and the drill's number, so a
// link deals the same drills; the statistics stay in this browser (drill-stats.js).
import { $, $$, FieldErrors, api, bindApiKey, fill, fmt, guard, h, pageError, post, rulesetLabel, scrollBox } from "./common.js";
import { cardElement, cardName } from "./cards.js";
import { ruleLinks, withCodes } from "./rulelinks.js";
import { t } from "./i18n.js";
import { roleName } from "./words.js";
import { kindName, useFamily } from "./lab-panels.js";
import * as stats from "./drill-stats.js";

const errors = new FieldErrors(document);
const SAME_VALUE = 1e-9;
let drill = null; // the answer of GET /v1/drills
let options = []; // the ranked options of its request, each with `key` and `label`
let generation = 0;
let families = {}; // rule-set id -> game family ("fourcolor", "chan"), from GET /v1/rulesets

// -- the drill set in the URL -------------------------------------------------------------------------------------
function readUrl() {
  const q = new URLSearchParams(location.search);
  const seed = Number.parseInt(q.get("seed"), 10);
  const n = Number.parseInt(q.get("n"), 10);
  return { ruleset: q.get("ruleset") || $("#ruleset").value, difficulty: q.get("difficulty") || "easy",
    kind: q.get("kind") || "any", seed: Number.isFinite(seed) && seed >= 0 ? seed : 1,
    n: Number.isFinite(n) && n >= 0 ? n : 0 };
}

const linkOf = (s) => `/ui/drill?${new URLSearchParams({ ruleset: s.ruleset, difficulty: s.difficulty,
  ...(s.kind !== "any" ? { kind: s.kind } : {}), seed: s.seed, n: s.n })}`;

function go(set, push = true) {
  if (push) history.pushState(null, "", linkOf(set)); else history.replaceState(null, "", linkOf(set));
  return show(set);
}

function controls() {
  return { ruleset: $("#ruleset").value, difficulty: $("#difficulty").value, kind: $("#kind").value,
    seed: Number($("#seed").value) || 0, n: 0 };
}

// -- the position -------------------------------------------------------------------------------------------------
const cards = (list, size = "small") => (size === "tiny"
  ? h("span", { class: "cards" }, list.map((c) => cardElement(c, { classes: "tiny" })))
  : h("span", { class: `cards ${size}` }, list.map((c) => cardElement(c))));

function meldList(melds) {
  return melds.length ? melds.map((m) => h("span", { class: "meld compact" }, h("span", { class: "meld-kind" }, kindName(m.kind)), cards(m.cards)))
    : [h("span", { class: "muted" }, t("none"))];
}

function describe(option) {
  // `label()` draws the option afresh each time: the choices and the ranking each hold their own
  if (drill.kind === "discard") return { key: option.card, text: cardName(option.card), label: () => cardElement(option.card, { classes: "tiny" }) };
  const kind = kindName(option.kind);  // in the game's own words: Chắn's pairs keep their names
  const text = option.cards.length ? `${kind} ${option.cards.join(" ")}` : kind;
  return { key: `${option.kind}:${option.cards.join(".")}`, text,
    label: (size = "small") => h("span", { class: "choice-label" }, h("span", { class: "kind" }, kind), option.cards.length ? cards(option.cards, size) : null) };
}

function drawPosition() {
  const p = drill.position;
  const claim = drill.kind === "claim";
  fill($("#question"), withCodes(claim
    ? t("Seat {from} offers {card}: do you claim it, and how?", { from: p.from_seat, card: p.public_card })
    : t("Which card do you discard?")));
  $("#context").textContent = [
    t("You are seat {seat}", { seat: p.seat }),
    claim ? (p.card_source === "stock" ? t("seat {from} turned the card up from the stock; you are {role}", { from: p.from_seat, role: roleName(p.seat_role) })
      : t("seat {from} discarded it; you are {role}", { from: p.from_seat, role: roleName(p.seat_role) })) : null,
    p.stock_remaining === null ? null : t("{n} cards left in the stock", { n: p.stock_remaining }),
  ].filter(Boolean).join(" · ");
  $("#offer").hidden = !claim;
  $("#faded-note").hidden = claim;
  fill($("#public"), claim ? cardElement(p.public_card) : null);
  fill($("#exposed"), meldList(p.exposed));
  const others = p.opponents.map((melds, seat) => (seat === p.seat || !melds.length ? null
    : h("div", { class: "seat-melds" }, h("h4", {}, t("Seat {seat}", { seat })), h("div", { class: "melds" }, meldList(melds)))));
  fill($("#opponents"), others.some(Boolean) ? others : h("span", { class: "muted" }, t("none")));
  fill($("#seen"), p.discards_seen.length ? p.discards_seen.map((c) => cardElement(c)) : h("span", { class: "muted" }, t("none")));
  drawChoices();
}

function drawChoices() {
  const p = drill.position;
  const hand = $("#hand");
  const list = $("#choices");
  hand.removeAttribute("role"); hand.removeAttribute("aria-labelledby");
  if (drill.kind === "discard") {
    const legal = new Set(options.map((o) => o.key));
    hand.setAttribute("role", "toolbar");
    hand.setAttribute("aria-labelledby", "question");
    fill(hand, p.hand.map((code) => (legal.has(code)
      ? cardElement(code, { onclick: () => answer(code), label: t("Discard {card}", { card: cardName(code) }), classes: "choice" })
      : cardElement(code, { classes: "fixed" }))));
    list.hidden = true;
    fill(list);
  } else {
    fill(hand, p.hand.map((code) => cardElement(code)));
    list.hidden = false;
    list.setAttribute("role", "toolbar");
    list.setAttribute("aria-labelledby", "question");
    list.setAttribute("aria-orientation", "vertical");
    fill(list, options.map((o, i) => h("button", { type: "button", class: "choice", "data-key": o.key,
      "aria-label": `${i + 1}: ${o.text}`, onclick: () => answer(o.key) }, h("span", { class: "num", "aria-hidden": "true" }, `${i + 1}`), o.label())));
  }
  const buttons = choiceButtons();
  buttons.forEach((b, i) => { b.tabIndex = i === 0 ? 0 : -1; });
}

const choiceButtons = () => $$("#hand button.choice, #choices button.choice");

// -- grading ------------------------------------------------------------------------------------------------------
const worth = (o) => (o.value === null || o.value === undefined ? o.expected_gain : o.value);

/** The loss of `key` against the advice (the option ranked first): its value's fall from the first (where no
 * value applies, the one-card expected gains' difference, never negative); right when it is ~0. */
export function grade(key) {
  const best = options[0];
  const mine = options.find((o) => o.key === key);
  const valued = best.value !== null && best.value !== undefined;
  const loss = valued ? worth(best) - worth(mine) : Math.max(0, worth(best) - worth(mine));
  return { mine, best, loss, correct: mine.rank === 1 || loss <= SAME_VALUE };
}

function answer(key) {
  if (!drill || $("#drill").dataset.answered) return;
  const result = grade(key);
  const saved = stats.record({ key: stats.keyOf(drill), link: linkOf({ ...readUrl() }), ruleset: drill.ruleset,
    difficulty: drill.difficulty, answer: result.mine.text, advice: result.best.text, loss: result.loss,
    correct: result.correct, choice: key });
  drawResult(result);
  drawStats(saved);
  $("#next").focus({ preventScroll: true }); // the keyboard goes on from "Next drill"; the eye reads the verdict
  $("#verdict").scrollIntoView({ block: "nearest" });
}

function drawResult(result) {
  $("#drill").dataset.answered = "true";
  let marked = false; // one card of the copies held is the one let go
  for (const b of choiceButtons()) {
    b.disabled = true;
    const picked = !marked && (b.dataset.code === result.mine.key || b.dataset.key === result.mine.key);
    b.classList.toggle("picked", picked);
    marked ||= picked;
  }
  const verdict = $("#verdict");
  verdict.className = `verdict ${result.correct ? "yes" : "no"}`;
  fill(verdict, withCodes(result.correct
    ? (result.mine.rank === 1 ? t("✓ Right: {answer} is the advice.", { answer: result.mine.text })
      : t("✓ Right: {answer} is worth as much as the advice, {advice}.", { answer: result.mine.text, advice: result.best.text }))
    : t("✗ Not the best: {answer} loses {loss} in value against the advice, {advice}.",
      { answer: result.mine.text, loss: fmt(result.loss, 3), advice: result.best.text })));
  const head = [t("rank"), t("answer and why"), t("value"), t("loss"), t("distance")];
  fill($("#ranking"), scrollBox(t("Every option"), h("table", { class: "ranked drill-ranking" },
    h("caption", {}, t("Every option, best first (values of the advice's model)")),
    h("thead", {}, h("tr", {}, head.map((text) => h("th", { scope: "col" }, text)))),
    h("tbody", {}, options.map((o) => h("tr", { class: [o.rank === 1 ? "best" : "", o === result.mine ? "mine" : ""].join(" ").trim() },
      h("td", { class: "num" }, o.rank),
      h("td", {}, h("div", { class: "option-head" }, o.label("tiny"), o === result.mine ? h("strong", { class: "you" }, t("your answer")) : null,
        o.follow ? h("span", { class: "muted" }, withCodes(t("then discard {card}", { card: o.follow.card }))) : null),
      h("div", { class: "reason" }, ruleLinks(o.reason))),
      h("td", { class: "num" }, fmt(worth(o), 3)),
      h("td", { class: "num" }, fmt(Math.max(0, worth(result.best) - worth(o)), 3)),
      h("td", { class: "num" }, o.distance)))))));
}

/** A difficulty in the reader's words. */
const difficultyName = (difficulty) => ({ easy: t("easy"), medium: t("medium"), hard: t("hard") })[difficulty] || difficulty;

// -- statistics ---------------------------------------------------------------------------------------------------
function drawStats(saved = stats.load()) {
  const s = stats.summary(saved);
  const item = (name, value, id) => [h("dt", {}, name), h("dd", { id }, value)];
  fill($("#stats"),
    item(t("Accuracy"), s.n ? t("{right} of {n} ({pct}%)", { right: s.right, n: s.n, pct: (100 * s.accuracy).toFixed(0) }) : "–", "stat-accuracy"),
    item(t("Mean loss"), s.n ? fmt(s.meanLoss, 3) : "–", "stat-loss"),
    item(t("Streak"), t("{streak} (best {best})", { streak: s.streak, best: s.best }), "stat-streak"));
  const last = saved.answers.slice(-stats.HISTORY).reverse();
  fill($("#history"), last.length ? [
    h("thead", {}, h("tr", {}, [t("drill"), t("answer"), t("advice"), t("loss")].map((text) => h("th", { scope: "col" }, text)))),
    h("tbody", {}, last.map((a) => h("tr", { class: a.correct ? "right" : "wrong" },
      h("td", {}, h("a", { href: a.link }, h("code", { translate: "no" }, a.ruleset), " ", difficultyName(a.difficulty))),
      h("td", {}, withCodes(`${a.correct ? "✓" : "✗"} ${a.answer}`)), h("td", {}, withCodes(a.advice)), h("td", { class: "num" }, fmt(a.loss, 3)))))]
    : h("caption", { class: "muted" }, t("No drill answered yet.")));
}

// -- dealing ------------------------------------------------------------------------------------------------------
async function show(set) {
  const mine = ++generation;
  for (const [id, value] of [["#ruleset", set.ruleset], ["#difficulty", set.difficulty], ["#kind", set.kind], ["#seed", set.seed]]) $(id).value = value;
  $("#position-no").textContent = t("drill {n} of seed {seed}", { n: set.n + 1, seed: set.seed });
  $("#drill").classList.add("busy");
  delete $("#drill").dataset.answered;
  fill($("#verdict")); fill($("#ranking"));
  try {
    const query = new URLSearchParams({ ruleset: set.ruleset, difficulty: set.difficulty, kind: set.kind, seed: set.seed, index: set.n });
    const { data } = await api("GET", `/v1/drills?${query}`);
    const ranked = await post(data.request.path, data.request.body);
    if (mine !== generation) return;
    errors.clear("drill");
    pageError(null);
    drill = data;
    useFamily(families[set.ruleset]);  // the kinds' words are the game's
    options = (data.kind === "discard" ? ranked.discards : ranked.choices).map((o) => ({ ...o, ...describe(o) }));
    drawPosition();
    const before = stats.answered(stats.load(), stats.keyOf(drill));
    if (before && options.some((o) => o.key === before.choice)) drawResult(grade(before.choice));
  } catch (error) {
    if (mine !== generation) return;
    errors.set("drill", error);
    throw error;
  } finally {
    if (mine === generation) $("#drill").classList.remove("busy");
  }
}

function next() {
  const set = readUrl();
  return go({ ...set, n: set.n + 1 }).then(() => { const first = choiceButtons()[0]; if (first) first.focus(); });
}

// -- keys ---------------------------------------------------------------------------------------------------------
function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("input, select, textarea, details")) return;
  const buttons = choiceButtons().filter((b) => !b.disabled);
  const at = buttons.indexOf(document.activeElement);
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (step && at >= 0) {
    const to = buttons[(at + step + buttons.length) % buttons.length];
    buttons[at].tabIndex = -1; to.tabIndex = 0; to.focus(); event.preventDefault();
  } else if ((event.key === "Home" || event.key === "End") && at >= 0) {
    const to = buttons[event.key === "Home" ? 0 : buttons.length - 1];
    buttons[at].tabIndex = -1; to.tabIndex = 0; to.focus(); event.preventDefault();
  } else if (/^[1-9]$/.test(event.key) && drill && drill.kind === "claim" && !$("#drill").dataset.answered) {
    const option = options[Number(event.key) - 1];
    if (option) { answer(option.key); event.preventDefault(); }
  } else if (event.key === "n" || event.key === "N" || (event.key === "Enter" && $("#drill").dataset.answered && event.target.tagName !== "BUTTON" && event.target.tagName !== "A")) {
    event.preventDefault();
    guard(next)();
  }
}

// -- start --------------------------------------------------------------------------------------------------------
async function start() {
  const { data } = await api("GET", "/v1/rulesets");
  families = Object.fromEntries(data.rulesets.map((r) => [r.id, r.family]));
  fill($("#ruleset"), data.rulesets.map((r) => h("option", { value: r.id }, rulesetLabel(r))));
  const set = readUrl();
  if (!data.rulesets.some((r) => r.id === set.ruleset)) set.ruleset = data.rulesets[0].id;
  drawStats();
  await go(set, false);
}

function wire() {
  bindApiKey($("#api-key"), () => { pageError(null); guard(drill ? () => show(readUrl()) : start)(); });
  $("#set-form").addEventListener("submit", (event) => event.preventDefault());
  for (const id of ["#ruleset", "#difficulty", "#kind", "#seed"]) $(id).addEventListener("change", guard(() => go(controls())));
  $("#new-set").addEventListener("click", guard(() => go({ ...controls(), seed: Math.floor(Math.random() * 1e6) })));
  $("#next").addEventListener("click", guard(next));
  $("#reset-stats").addEventListener("click", () => { drawStats(stats.reset()); });
  $("#copy-link").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(location.href); $("#copied").textContent = t("link copied"); } catch {
      $("#copied").textContent = location.href;
    }
  });
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", guard(() => show(readUrl())));
}

wire();
guard(start)();
