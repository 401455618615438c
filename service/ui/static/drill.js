// Drills: GET /v1/drills deals a position from a seeded round the advice plays; the drill's own request
// (/v1/discards or /v1/claims) ranks its options. The player picks a discard or an answer to the public card; the
// grade is the advice's value loss: the value of the advised option (ranked first) minus the value of the one
// chosen (the values never rise along the ranking), in the drill's `loss_unit`; an answer worth as much is right,
// and is then the advice as much as the one ranked first (the verdict and the history say so alike). Nothing of
// the result shows before the answer. Seats are said as players count them, from 1; cards by their names. The URL
// holds the drill set and the drill's number, so a link deals the same drills; the statistics stay in this
// browser (drill-stats.js).
import { $, $$, FieldErrors, api, bindApiKey, fill, fmt, guard, h, pageError, pct, post, rulesetLabel, rulesetName, scrollBox } from "./common.js";
import { cardElement, cardName, cardNames } from "./cards.js";
import { hinted, ruleLinks } from "./rulelinks.js";
import { shareUrl, t } from "./i18n.js";
import { kindName as kindWord, roleName, seatNumber, turnedUp, unitName } from "./words.js";
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

/** An option's key (a discard: its card; an answer: its kind and cards, `pong:yC.yC`) in words, in the game's
 * own words (`family`: Chắn's pairs keep their names): the choices, the verdict and the history all say it so. */
function keyText(key, family) {
  const at = key.indexOf(":");
  if (at < 0) return cardName(key);
  const kind = kindWord(key.slice(0, at), family);
  const codes = key.slice(at + 1).split(".").filter(Boolean);
  return codes.length ? t("{kind}: {cards}", { kind, cards: cardNames(codes) }) : kind;
}

function describe(option) {
  // `label()` draws the option afresh each time: the choices and the ranking each hold their own
  if (drill.kind === "discard") return { key: option.card, text: cardName(option.card), label: () => cardElement(option.card, { classes: "tiny" }) };
  const kind = kindName(option.kind);  // in the game's own words: Chắn's pairs keep their names
  const key = `${option.kind}:${option.cards.join(".")}`;
  return { key, text: keyText(key, families[drill.ruleset]),
    label: (size = "small") => h("span", { class: "choice-label" }, h("span", { class: "kind" }, kind), option.cards.length ? cards(option.cards, size) : null) };
}

// -- units --------------------------------------------------------------------------------------------------------
/** How the drill's values and losses read (`loss_unit`): points; the chance to win where nobody pays, as a
 * percentage; the one-card expected gain where no value model applies. */
const UNITS = {
  points: { number: (x) => fmt(x, 2), amount: (x) => t("{n} points", { n: fmt(x, 2) }), name: () => unitName("points") },
  wins: { number: (x) => pct(x), amount: (x) => t("{n} win chance", { n: pct(x) }), name: () => t("win chance") },
  expected_gain: { number: (x) => fmt(x, 3), amount: (x) => `${fmt(x, 3)} ${unitName("expected_gain")}`,
    name: () => unitName("expected_gain") },
};
/** The unit of a drill's (or a kept answer's) values; an answer kept before units were kept: plain numbers. */
const unitOf = (unit) => UNITS[unit] || { number: (x) => fmt(x, 3), amount: (x) => fmt(x, 3), name: () => "" };

function drawPosition() {
  const p = drill.position;
  const claim = drill.kind === "claim";
  // the card turned up by the player himself is his to take, not a card another seat offers him
  const own = claim && turnedUp(p.card_source) && p.from_seat === p.seat;
  const words = { from: claim ? seatNumber(p.from_seat) : null, card: claim ? cardName(p.public_card) : null };
  fill($("#question"), hinted(!claim ? t("Which card do you discard?")
    : own ? t("You turned up {card} from the stock: do you take it, and how?", words)
      : turnedUp(p.card_source) ? t("Seat {from} turned up {card} from the stock: do you claim it, and how?", words)
        : t("Seat {from} discarded {card}: do you claim it, and how?", words)));
  $("#context").textContent = [
    t("You are seat {seat}", { seat: seatNumber(p.seat) }),
    claim && !own ? t("you are {role}", { role: roleName(p.seat_role) }) : null,
    p.stock_remaining === null ? null : t("{n} cards left in the stock", { n: p.stock_remaining }),
  ].filter(Boolean).join(" · ");
  $("#offer").hidden = !claim;
  $("#faded-note").hidden = claim;
  fill($("#public"), claim ? cardElement(p.public_card) : null);
  fill($("#exposed"), meldList(p.exposed));
  const others = p.opponents.map((melds, seat) => (seat === p.seat || !melds.length ? null
    : h("div", { class: "seat-melds" }, h("h4", {}, t("Seat {seat}", { seat: seatNumber(seat) })), h("div", { class: "melds" }, meldList(melds)))));
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

/** An option's loss against the option ranked first: its value's fall (where no value applies, the one-card
 * expected gains' difference, never negative). */
function lossOf(option) {
  const best = options[0];
  const valued = best.value !== null && best.value !== undefined;
  return valued ? worth(best) - worth(option) : Math.max(0, worth(best) - worth(option));
}

/** The loss of `key` against the advice; right when it is ~0. The options worth as much as the first (`ties`,
 * the first among them) are all the advice: a right answer is itself the advice (`advice`), one of `ties`. */
export function grade(key) {
  const best = options[0];
  const mine = options.find((o) => o.key === key);
  const ties = options.filter((o) => o.rank === 1 || lossOf(o) <= SAME_VALUE).length;
  const loss = lossOf(mine);
  const correct = mine.rank === 1 || loss <= SAME_VALUE;
  return { mine, best, loss, correct, ties, advice: correct ? mine : best };
}

/** The advice in words, and (when several options tie for the best) that it is one of them: the verdict and the
 * history say it alike. */
const adviceWords = (advice, ties) => (ties > 1 ? t("{advice}, one of {n} equally good answers", { advice, n: ties }) : advice);

function answer(key) {
  if (!drill || $("#drill").dataset.answered) return;
  const result = grade(key);
  const saved = stats.record({ key: stats.keyOf(drill), link: linkOf({ ...readUrl() }), ruleset: drill.ruleset,
    difficulty: drill.difficulty, family: families[drill.ruleset], choice: key, adviceChoice: result.advice.key,
    ties: result.ties, answer: result.mine.text, advice: result.advice.text, loss: result.loss,
    unit: drill.loss_unit, correct: result.correct });
  drawResult(result);
  fill($("#verdict-said"), [...$("#verdict").childNodes].map((n) => n.cloneNode(true))); // what a screen reader hears
  drawStats(saved);
  $("#next").focus({ preventScroll: true }); // the keyboard goes on from "Next drill"; the eye reads the verdict
  $("#verdict").scrollIntoView({ block: "nearest" });
}

function drawResult(result) {
  $("#drill").dataset.answered = "true";
  $("#result").hidden = false;
  let marked = false; // one card of the copies held is the one let go
  for (const b of choiceButtons()) {
    b.disabled = true;
    const picked = !marked && (b.dataset.code === result.mine.key || b.dataset.key === result.mine.key);
    b.classList.toggle("picked", picked);
    marked ||= picked;
  }
  const unit = unitOf(drill.loss_unit);
  const said = result.correct
    ? (result.ties > 1 ? t("✓ Right: {answer} is the advice, one of {n} equally good answers.", { answer: result.mine.text, n: result.ties })
      : t("✓ Right: {answer} is the advice.", { answer: result.mine.text }))
    : t("✗ Not the best: with {answer} you lose {loss} against the advice, {advice}.",
      { answer: result.mine.text, loss: unit.amount(result.loss), advice: adviceWords(result.best.text, result.ties) });
  const verdict = $("#verdict");
  verdict.className = `verdict ${result.correct ? "yes" : "no"}`;
  fill(verdict, hinted(said));
  const head = [t("rank"), t("answer and why"), t("value"), t("loss"), t("distance")];
  fill($("#ranking"), scrollBox(t("Every option"), h("table", { class: "ranked drill-ranking" },
    h("caption", {}, t("Every option, best first (values of the advice's model)"),
      h("br"), h("span", { class: "muted unit" }, t("Values and losses: {unit}", { unit: unit.name() }))),
    h("thead", {}, h("tr", {}, head.map((text) => h("th", { scope: "col" }, text)))),
    h("tbody", {}, options.map((o) => h("tr", { class: [o.rank === 1 ? "best" : "", o === result.mine ? "mine" : ""].join(" ").trim() },
      h("td", { class: "num" }, o.rank),
      h("td", {}, h("div", { class: "option-head" }, o.label("tiny"), o === result.mine ? h("strong", { class: "you" }, t("your answer")) : null,
        o.follow ? h("span", { class: "muted" }, hinted(t("then discard {card}", { card: cardName(o.follow.card) }))) : null),
      h("div", { class: "reason" }, ruleLinks(o.reason))),
      h("td", { class: "num" }, unit.number(worth(o))),
      h("td", { class: "num" }, unit.number(Math.max(0, lossOf(o)))),
      h("td", { class: "num" }, o.distance)))))));
}

/** A difficulty in the reader's words. */
const difficultyName = (difficulty) => ({ easy: t("easy"), medium: t("medium"), hard: t("hard") })[difficulty] || difficulty;

// -- statistics ---------------------------------------------------------------------------------------------------
/** A kept answer's choice and advice in words (said afresh in the page's language; an answer kept before its
 * keys were: its words then). */
const familyOfKept = (a) => a.family || families[a.ruleset];
const answerText = (a) => (a.choice ? keyText(a.choice, familyOfKept(a)) : a.answer);
const adviceText = (a) => {
  const advice = a.adviceChoice || (a.correct ? a.choice : null); // a right answer is the advice
  return adviceWords(advice ? keyText(advice, familyOfKept(a)) : a.advice, a.ties || 1);
};

function drawStats(saved = stats.load()) {
  const s = stats.summary(saved);
  const item = (name, value, id) => [h("dt", {}, name), h("dd", { id }, value)];
  const means = Object.entries(s.meanLosses).map(([unit, mean]) => unitOf(unit).amount(mean)).join(" · ");
  fill($("#stats"),
    item(t("Accuracy"), s.n ? t("{right} of {n} ({pct}%)", { right: s.right, n: s.n, pct: (100 * s.accuracy).toFixed(0) }) : "–", "stat-accuracy"),
    item(t("Mean loss"), s.n ? means : "–", "stat-loss"),
    item(t("Streak"), t("{streak} (best {best})", { streak: s.streak, best: s.best }), "stat-streak"));
  const last = saved.answers.slice(-stats.HISTORY).reverse();
  fill($("#history"), last.length ? [
    h("thead", {}, h("tr", {}, [t("drill"), t("answer"), t("advice"), t("loss")].map((text) => h("th", { scope: "col" }, text)))),
    h("tbody", {}, last.map((a) => h("tr", { class: a.correct ? "right" : "wrong" },
      h("td", {}, h("a", { href: a.link }, rulesetName(a.ruleset), " · ", difficultyName(a.difficulty))),
      h("td", {}, hinted(`${a.correct ? "✓" : "✗"} ${answerText(a)}`)), h("td", {}, hinted(adviceText(a))),
      h("td", { class: "num" }, unitOf(a.unit).amount(Math.max(0, a.loss))))))]
    : h("caption", { class: "muted" }, t("No drill answered yet.")));
}

// -- dealing ------------------------------------------------------------------------------------------------------
async function show(set) {
  const mine = ++generation;
  for (const [id, value] of [["#ruleset", set.ruleset], ["#difficulty", set.difficulty], ["#kind", set.kind], ["#seed", set.seed]]) $(id).value = value;
  $("#position-no").textContent = t("drill {n} of seed {seed}", { n: set.n + 1, seed: set.seed });
  $("#drill").classList.add("busy");
  delete $("#drill").dataset.answered;
  $("#result").hidden = true; // nothing of the result before the answer
  fill($("#verdict")); fill($("#ranking")); $("#verdict-said").textContent = "";
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
    try { await navigator.clipboard.writeText(shareUrl()); $("#copied").textContent = t("link copied"); } catch {
      $("#copied").textContent = shareUrl();
    }
  });
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", guard(() => show(readUrl())));
}

wire();
guard(start)();
