// The hand lab's state: the rule-sets the API knows and the lab the URL holds (rule-set, options, table, cards).
// Every change goes through `changed()`: the URL is written first, so a copied link always shows this hand. Each
// change is a new entry of the browser's history (pushState), so Back, the Undo button and Ctrl+Z step back
// through the edits and Forward, Redo and Ctrl+Y forward again; `history.state.depth` counts the lab's entries
// before this one, so Undo stops where the lab was opened instead of leaving the page.
import { $ } from "./common.js";
import { parseCodes } from "./cards.js";

export let rulesets = []; // empty until GET /v1/rulesets answers
export let state = null; // {ruleset, options, seats, seat, hand, exposed, visible, public, from, source}
export const pendingMeld = []; // the exposed meld being built, not in the URL
export let generation = 0; // answers of an older state are dropped
export let edits = 0; // changes of the lab: a search's result is shown only for the lab it was started on

export const rulesetById = (id) => rulesets.find((r) => r.id === id);
export const current = () => rulesetById(state.ruleset);

/** The search inputs kept in the URL too: [query name, input]. */
export const SEARCH_FIELDS = [["samples", "#samples"], ["budget", "#budget"], ["search_seed", "#search-seed"]];

/** Take the rule-sets of GET /v1/rulesets and start from the lab the URL holds. */
export function start(list) {
  rulesets = list;
  state = fromQuery(location.search);
}

/** The lab was edited: a search started before answers another lab. */
export function nextEdit() {
  edits += 1;
  return edits;
}

/** A new state to ask about: answers of the older ones are dropped. */
export function nextGeneration() {
  generation += 1;
  return generation;
}

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

/** The lab's hand as the hand embed view's query (/embed/hand): the lab's query, less the search's settings. */
export function embedQuery() {
  const q = new URLSearchParams(toQuery(state));
  for (const [name] of SEARCH_FIELDS) q.delete(name);
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

/** How many of the lab's own history entries lie before this one (0: Undo has nothing to go back to). */
export const depth = () => (history.state && Number.isInteger(history.state.depth) ? history.state.depth : 0);

/** How many lab entries lie after this one that Redo can go forward to. */
let ahead = 0;
export const canRedo = () => ahead > 0;

/** Write the lab into the URL in place (before the state is loaded there is nothing to write). */
export function writeUrl() {
  if (state) history.replaceState({ depth: depth() }, "", `?${toQuery(state)}`);
}

/** Write the lab into a new history entry: the one before it is what Undo and Back go back to. */
function pushUrl() {
  const query = `?${toQuery(state)}`;
  if (query === location.search) return; // nothing the URL holds changed: no step to undo
  history.pushState({ depth: depth() + 1 }, "", query);
  ahead = 0;
}

/** The browser moved through the lab's history (Back, Forward, Undo, Redo): take the state its URL holds. */
export function restore(forward) {
  ahead = Math.max(0, ahead + (forward ? -1 : 1));
  state = fromQuery(location.search);
  pendingMeld.length = 0;
}

const listeners = [];

/** Run `listener` after every change of the state. */
export function onChange(listener) {
  listeners.push(listener);
}

/** The state changed: keep it in the URL (a new history entry unless `push` is false) and tell the page. */
export function changed(push = true) {
  if (push) pushUrl(); else writeUrl();
  for (const listener of listeners) listener();
}

/** Cards held over the concealed hand and the exposed melds (what the rule-set's hand sizes count). */
export function held() {
  return state.hand.length + state.exposed.reduce((n, m) => n + m.cards.length, 0);
}

/** Copies of `code` the lab has placed anywhere: hand, the meld being built, exposed melds, visible, public. */
export function used(code) {
  let n = state.hand.filter((c) => c === code).length + pendingMeld.filter((c) => c === code).length;
  for (const meld of state.exposed) n += meld.cards.filter((c) => c === code).length;
  n += state.visible.filter((c) => c === code).length;
  if (state.public === code) n += 1;
  return n;
}

/** Copies of `code` the rule-set's deck still has for the lab to place. */
export const left = (code) => (current().copies[code] || 0) - used(code);

/** Codes in the deck's order; codes the deck does not know stay last. */
export function sortCodes(list) {
  const order = current().cards;
  const at = (code) => (order.includes(code) ? order.indexOf(code) : order.length);
  return [...list].sort((a, b) => at(a) - at(b));
}

/** Exposed melds from text: `triple: wS wS wS; command: rG rA rE`. */
export function parseExposed(text) {
  return text.split(";").map((s) => s.trim()).filter(Boolean).map((part) => {
    const [kind, rest = ""] = part.includes(":") ? part.split(":") : [part, ""];
    return { kind: kind.trim(), cards: parseCodes(rest) };
  });
}

/** Take every card out of the lab. */
export function clearCards() {
  state.hand = []; state.exposed = []; state.visible = []; state.public = null; pendingMeld.length = 0;
}
