// A drill as a player sees and answers it, shared by the drill page (drill.js) and the drill embed view
// (embed-drill.js): the position (drawn into the elements of templates/ui/_drill_position.html), the choices, the
// grade and the verdict with every option ranked. The grade is the advice's value loss: the value of the advised
// option (ranked first) minus the value of the one chosen (the values never rise along the ranking), in the drill's
// `loss_unit`; an answer worth as much is right, and is then the advice as much as the one ranked first (the verdict
// and the history say so alike). Seats are said as players count them, from 1; cards by their names.
import { $, $$, fill, fmt, h, pct, scrollBox } from "./common.js";
import { cardElement, cardName, cardNames } from "./cards.js";
import { hinted, ruleLinks } from "./rulelinks.js";
import { t } from "./i18n.js";
import { kindName as kindWord, roleName, seatNumber, turnedUp, unitName } from "./words.js";
import { kindName, useFamily } from "./lab-panels.js";

const SAME_VALUE = 1e-9;
export let drill = null; // the answer of GET /v1/drills
export let options = []; // the ranked options of its request, each with `key`, `text` and `label`
let family = "fourcolor"; // the drill's game ("fourcolor", "chan")

/** Take a drill (`data`: GET /v1/drills' answer), its request's answer (`ranked`) and its game (`game`): the
 * options ranked, each with its key and words. */
export function load(data, ranked, game) {
  drill = data;
  family = game;
  useFamily(game); // the kinds' words are the game's
  options = (data.kind === "discard" ? ranked.discards : ranked.choices).map((o) => ({ ...o, ...describe(o) }));
}

// -- the position -------------------------------------------------------------------------------------------------
const cards = (list, size = "small") => (size === "tiny"
  ? h("span", { class: "cards" }, list.map((c) => cardElement(c, { classes: "tiny" })))
  : h("span", { class: `cards ${size}` }, list.map((c) => cardElement(c))));

/** Melds, each its kind over its cards (a short "none" for no meld). */
export function meldList(melds) {
  return melds.length ? melds.map((m) => h("span", { class: "meld compact" }, h("span", { class: "meld-kind" }, kindName(m.kind)), cards(m.cards)))
    : [h("span", { class: "muted" }, t("none"))];
}

/** An option's key (a discard: its card; an answer: its kind and cards, `pong:yC.yC`) in words, in the game's
 * own words (`game`: Chắn's pairs keep their names): the choices, the verdict and the history all say it so. */
export function keyText(key, game) {
  const at = key.indexOf(":");
  if (at < 0) return cardName(key);
  const kind = kindWord(key.slice(0, at), game);
  const codes = key.slice(at + 1).split(".").filter(Boolean);
  return codes.length ? t("{kind}: {cards}", { kind, cards: cardNames(codes) }) : kind;
}

function describe(option) {
  // `label()` draws the option afresh each time: the choices and the ranking each hold their own
  if (drill.kind === "discard") return { key: option.card, text: cardName(option.card), label: () => cardElement(option.card, { classes: "tiny" }) };
  const kind = kindName(option.kind);  // in the game's own words: Chắn's pairs keep their names
  const key = `${option.kind}:${option.cards.join(".")}`;
  return { key, text: keyText(key, family),
    label: (size = "small") => h("span", { class: "choice-label" }, h("span", { class: "kind" }, kind), option.cards.length ? cards(option.cards, size) : null) };
}

/** A difficulty in the reader's words. */
export const difficultyName = (difficulty) => ({ easy: t("easy"), medium: t("medium"), hard: t("hard") })[difficulty] || difficulty;

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
export const unitOf = (unit) => UNITS[unit] || { number: (x) => fmt(x, 3), amount: (x) => fmt(x, 3), name: () => "" };

/** Draw the drill's position and its choices; a choice answers with `onAnswer(key)`. */
export function drawPosition(onAnswer) {
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
  drawChoices(onAnswer);
}

function drawChoices(onAnswer) {
  const p = drill.position;
  const hand = $("#hand");
  const list = $("#choices");
  hand.removeAttribute("role"); hand.removeAttribute("aria-labelledby");
  if (drill.kind === "discard") {
    const legal = new Set(options.map((o) => o.key));
    hand.setAttribute("role", "toolbar");
    hand.setAttribute("aria-labelledby", "question");
    fill(hand, p.hand.map((code) => (legal.has(code)
      ? cardElement(code, { onclick: () => onAnswer(code), label: t("Discard {card}", { card: cardName(code) }), classes: "choice" })
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
      "aria-label": `${i + 1}: ${o.text}`, onclick: () => onAnswer(o.key) }, h("span", { class: "num", "aria-hidden": "true" }, `${i + 1}`), o.label())));
  }
  const buttons = choiceButtons();
  buttons.forEach((b, i) => { b.tabIndex = i === 0 ? 0 : -1; });
}

export const choiceButtons = () => $$("#hand button.choice, #choices button.choice");

/** Whether the drill shown has been answered. */
export const answered = () => Boolean($("#drill").dataset.answered);

/** The keys of the choices (arrows, Home and End move between them, 1-9 answer a listed one): whether `event` was
 * one of them (then handled). */
export function choiceKey(event, onAnswer) {
  const buttons = choiceButtons().filter((b) => !b.disabled);
  const at = buttons.indexOf(document.activeElement);
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  let to = null;
  if (step && at >= 0) to = buttons[(at + step + buttons.length) % buttons.length];
  else if ((event.key === "Home" || event.key === "End") && at >= 0) to = buttons[event.key === "Home" ? 0 : buttons.length - 1];
  if (to) {
    buttons[at].tabIndex = -1; to.tabIndex = 0; to.focus(); event.preventDefault();
    return true;
  }
  if (/^[1-9]$/.test(event.key) && drill && drill.kind === "claim" && !answered()) {
    const option = options[Number(event.key) - 1];
    if (option) { onAnswer(option.key); event.preventDefault(); return true; }
  }
  return false;
}

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
export const adviceWords = (advice, ties) => (ties > 1 ? t("{advice}, one of {n} equally good answers", { advice, n: ties }) : advice);

/** The graded answer: the choice marked, the verdict, every option ranked with its value and loss. */
export function drawResult(result) {
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

/** Say the verdict just drawn to a screen reader (an answer given now, not one shown again). */
export function announce() {
  fill($("#verdict-said"), [...$("#verdict").childNodes].map((n) => n.cloneNode(true)));
}

/** Before a drill is shown: nothing of the result (it shows only after the answer). */
export function clearResult() {
  delete $("#drill").dataset.answered;
  $("#result").hidden = true;
  fill($("#verdict")); fill($("#ranking")); $("#verdict-said").textContent = "";
}
