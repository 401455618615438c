// Drawing the hand lab's builder: the rule-set and its options, the deck with the copies left, the hand, the
// exposed melds, the visible cards and the public card. Hand sizes and copies come from the rule-set's answer.
import { $, fill, h } from "./common.js";
import { cardElement } from "./cards.js";
import { roleOf } from "./claims.js";
import { roleName, seatNumber } from "./words.js";
import { t } from "./i18n.js";
import { kindName, useFamily } from "./lab-panels.js";
import { changed, current, held, left, pendingMeld, sortCodes, state } from "./lab-state.js";
import { ruleLink } from "./rulelinks.js";

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

/** The deck, each card with the copies left. */
export function drawPalette() {
  const rs = current();
  const palette = $("#palette");
  const shown = [...palette.children].map((b) => b.dataset.code);
  if (shown.join() !== rs.cards.join()) { // a new deck; otherwise update in place, so the focus stays on its card
    fill(palette, ...rs.cards.map((code) => cardElement(code, { onclick: () => addCard(code), extra: "" })));
  }
  for (const button of palette.children) {
    const code = button.dataset.code;
    const copies = left(code);
    button.querySelector(".badge").textContent = `×${copies}`;
    button.setAttribute("aria-label", t("add {code} ({copies} left)", { code, copies }));
    button.classList.toggle("spent", copies <= 0);
  }
}

function drawList(container, list, remove) {
  // a removed card's place takes the focus, so the keyboard can go on taking cards out
  const focused = [...container.children].indexOf(document.activeElement);
  fill(container, ...list.map((code, i) => cardElement(code, { onclick: () => remove(i),
    label: t("take {code} out", { code }) })));
  if (focused >= 0 && container.children.length) container.children[Math.min(focused, container.children.length - 1)].focus();
}

/** The meld being built. */
export function drawPending() {
  drawList($("#pending"), pendingMeld, (i) => { pendingMeld.splice(i, 1); drawPending(); drawPalette(); });
  drawPalette();
}

function drawZones() {
  drawList($("#hand"), state.hand, (i) => { state.hand.splice(i, 1); changed(); });
  $("#hand-count").textContent = t("{hand} in hand, {held} with the melds (a discard is decided with {turn})",
    { hand: state.hand.length, held: held(), turn: current().hand_size.turn });
  fill($("#exposed"), ...state.exposed.map((meld, i) => h("div", { class: "meld" },
    h("span", { class: "kind" }, kindName(meld.kind)),
    h("span", { class: "cards small" }, meld.cards.map((code) => cardElement(code))),
    h("button", { type: "button", onclick: () => { state.exposed.splice(i, 1); changed(); },
      "aria-label": t("remove the {kind} {cards}", { kind: kindName(meld.kind), cards: meld.cards.join(" ") }) }, "✕"))));
  drawList($("#visible"), state.visible, (i) => { state.visible.splice(i, 1); changed(); });
  fill($("#public"), state.public
    ? cardElement(state.public, { onclick: () => { state.public = null; changed(); },
      label: t("take the public card {code} away", { code: state.public }) })
    : h("span", { class: "muted" }, t("none")));
}

/** The cards placed, as pictures and as codes, and the seat's role on the public card. */
export function drawBuilder() {
  state.hand = sortCodes(state.hand);
  drawZones();
  $("#hand-codes").value = state.hand.join(" ");
  $("#exposed-codes").value = state.exposed.map((m) => `${m.kind}: ${m.cards.join(" ")}`).join("; ");
  $("#visible-codes").value = state.visible.join(" ");
  $("#public-code").value = state.public || "";
  $("#from-seat").value = seatNumber(state.from); // seats as players count them, from 1
  $("#from-seat").max = state.seats;
  $("#source").value = state.source;
  $("#role").textContent = t("you (seat {seat}) are {role}",
    { seat: seatNumber(state.seat), role: roleName(roleOf(state.seat, state.from, state.seats, state.source)) });
  drawPalette();
}

/** The rule-set, the table (seats kept within the rule-set's range) and the options. */
export function drawSetup() {
  const rs = current();
  useFamily(rs.family);
  $("#ruleset").value = rs.id;
  const seats = $("#seats");
  seats.min = rs.seats.min; seats.max = rs.seats.max;
  state.seats = Math.min(Math.max(state.seats, rs.seats.min), rs.seats.max);
  seats.value = state.seats;
  $("#seat").max = state.seats;
  state.seat = Math.min(state.seat, state.seats - 1);
  state.from = Math.min(state.from, state.seats - 1);
  $("#seat").value = seatNumber(state.seat);
  fill($("#meld-kind"), ...rs.melds.map((m) => h("option", { value: m.kind }, kindName(m.kind))));
  const box = $("#options");
  fill(box, h("legend", {}, t("Options")), ...rs.options.map((option) => optionField(option)));
}

function optionField(option) {
  const value = option.name in state.options ? state.options[option.name] : option.default;
  const id = `opt-${option.name}`;
  let input;
  if (option.choices) {
    const labels = option.choice_labels || option.choices;
    input = h("select", { id }, option.choices.map((c, i) => h("option", { value: c, selected: c === value }, labels[i])));
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
    h("label", { for: id, title: option.doc }, option.label || option.name, " ", input), ruleLink(option.rule, option.label || option.name),
    h("p", { class: "field-error", "data-field": `options.${option.name}`, hidden: true }));
}
