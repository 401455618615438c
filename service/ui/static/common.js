// Shared by the pages: DOM helpers, calls to the /v1 API, problem documents shown next to their fields, jobs.

import { CARD_IN_TEXT, cardName } from "./cards.js";
import { lang, t } from "./i18n.js";

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/** An element with attributes (`on*` functions become listeners) and children (strings become text). */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (name === "class") element.className = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** Replace an element's children; null, undefined and false are left out (the DOM would write "null"). */
export function fill(element, ...children) {
  element.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

const KEY_STORE = "longcards.apiKey";

/** Whether this page is an embed view (`/embed/...`, framed by another site): it never reads a stored key. */
export const EMBEDDED = typeof document !== "undefined" && "embed" in document.documentElement.dataset;

// The API key lives in this tab's session storage, gone when the tab closes; only when "remember" is ticked also
// in local storage, kept for good (any script of this site could read it there). Storage may be off: no key kept.
// An embed view reads none: what a framing page shows its visitors must not act as one of them.
function storedKey() {
  if (EMBEDDED) return "";
  try { return sessionStorage.getItem(KEY_STORE) || localStorage.getItem(KEY_STORE) || ""; } catch { return ""; }
}

function remembered() {
  try { return Boolean(localStorage.getItem(KEY_STORE)); } catch { return false; }
}

function storeKey(key, remember) {
  try {
    if (key) sessionStorage.setItem(KEY_STORE, key); else sessionStorage.removeItem(KEY_STORE);
  } catch { /* storage may be off */ }
  try {
    if (key && remember) localStorage.setItem(KEY_STORE, key); else localStorage.removeItem(KEY_STORE);
  } catch { /* storage may be off */ }
}

/**
 * Keep the API key field for this tab's session, and for good when `remember` (a checkbox) is ticked; unticking it
 * forgets the kept key at once. `onChange` runs after a new key is stored.
 */
export function bindApiKey(input, onChange = () => {}, remember = $("#remember-key")) {
  if (input.form) input.form.addEventListener("submit", (event) => event.preventDefault());
  input.value = storedKey();
  if (remember) {
    remember.checked = remembered();
    remember.addEventListener("change", () => storeKey(input.value.trim(), remember.checked));
  }
  input.addEventListener("change", () => {
    storeKey(input.value.trim(), Boolean(remember && remember.checked));
    onChange();
  });
}

function apiKey() {
  return storedKey();
}

/** An error answer of the API (a problem document), or a failure to reach it. */
export class Problem extends Error {
  constructor(status, body) {
    const doc = body && typeof body === "object" ? body : {};
    super(doc.detail || doc.title || t("HTTP {status}", { status }));
    this.status = status;
    this.code = doc.code || (status ? `http_${status}` : "network_error");
    this.detail = doc.detail || doc.title || t("the service answered HTTP {status}", { status });
    this.type = doc.type || null;
    this.errors = doc.errors || {};
  }
}

/** Call the API; answers {data, response}, throws a Problem for any error answer. */
export async function api(method, path, body) {
  // texts for people count seats from 1, as the pages do (the fields keep the API's seats, from 0)
  const headers = { Accept: "application/json", "Accept-Language": lang, "X-Seats-From": "1" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const key = apiKey();
  if (key) headers.Authorization = `Bearer ${key}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    throw new Problem(0, { title: t("Network error"), detail: t("the service did not answer ({error})", { error: error.message }) });
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok && response.status !== 202) throw new Problem(response.status, data);
  return { data, response };
}

export const post = (path, body) => api("POST", path, body).then((r) => r.data);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Submit a job (202 + Location), poll it and report its progress as a fraction; answers its result.
 * `progressOf(progress)` turns the job's progress object into [done, total].
 */
export async function runJob(path, body, onProgress, progressOf, cancelled = () => false) {
  const { response } = await api("POST", path, body);
  const location = response.headers.get("Location");
  if (!location) throw new Problem(response.status, { detail: t("the job was accepted without a Location") });
  let wait = 200;
  for (;;) {
    const { data: job } = await api("GET", location);
    if (job.progress) {
      const [done, total] = progressOf(job.progress);
      if (total > 0) onProgress(Math.min(done / total, 1), job);
    }
    if (job.status === "finished") { onProgress(1, job); return job.result; }
    if (job.status === "failed" || job.status === "canceled") {
      throw new Problem(job.error ? job.error.status : 500, job.error || { detail: job.status === "failed" ? t("the job failed") : t("the job was canceled") });
    }
    if (cancelled()) throw new Problem(0, { detail: t("stopped") });
    await sleep(wait);
    wait = Math.min(wait * 1.5, 1000);
  }
}

/**
 * Field errors of the page: each request (a `source`) reports its problem; every `.field-error[data-field]`
 * shows the details naming its field (`hand.3` goes to `hand`, `options.threshold` to `options.threshold`).
 */
export class FieldErrors {
  constructor(root = document, fallback = null) { this.root = root; this.fallback = fallback; this.bySource = new Map(); }

  set(source, problem) { this.bySource.set(source, problem); this.render(); }

  clear(source) { if (this.bySource.delete(source)) this.render(); }

  // slots are found by comparing data-field, never by a selector built from the path: a field name is the
  // sender's text (a pasted log's unknown field may hold a quote) and would make an invalid selector
  slotFor(path) {
    const slots = new Map([...this.root.querySelectorAll(".field-error[data-field]")].map((s) => [s.dataset.field, s]));
    const parts = path.split(".");
    for (let n = parts.length; n > 0; n--) {
      const slot = slots.get(parts.slice(0, n).join("."));
      if (slot) return slot;
    }
    return (this.fallback && slots.get(this.fallback)) || null;
  }

  render() {
    const messages = new Map();
    for (const problem of this.bySource.values()) {
      const entries = Object.entries(problem.errors || {});
      for (const [path, list] of entries) {
        const slot = this.slotFor(path);
        if (!slot) continue;
        if (!messages.has(slot)) messages.set(slot, new Set());
        messages.get(slot).add(fieldMessage(path, list));
      }
    }
    for (const slot of this.root.querySelectorAll(".field-error")) {
      const found = messages.get(slot);
      slot.textContent = found ? [...found].join(" · ") : "";
      slot.toggleAttribute("hidden", !found);
      slot.setAttribute("role", found ? "alert" : "none");
      const field = slot.dataset.field;
      for (const input of this.root.querySelectorAll("[data-field-input]")) {
        if (input.dataset.fieldInput === field) input.toggleAttribute("aria-invalid", Boolean(found));
      }
    }
  }
}

/** What went wrong, said to a player: the problem codes a page meets, each in the player's frame (the cards, the
 * table, the log, the service being busy); any other by its kind. Each is a literal message for the catalogs. */
export function problemWords(problem) {
  const words = {
    unknown_card: t("A card here is not in this game's deck."),
    impossible_card_count: t("There are more copies of a card here than the deck has."),
    too_many_cards: t("There are more cards here than a hand can hold."),
    wrong_card_count: t("This hand does not have the number of cards this question needs."),
    invalid_meld: t("One of the exposed melds is not a meld of this game."),
    invalid_seat: t("A seat here is not at this table."),
    missing_public_card: t("Choose the card on offer first."),
    not_a_win: t("This hand does not win, so there is nothing to pay."),
    inconsistent_context: t("The table does not add up: check the cards, the seats and the card on offer."),
    illegal_discard: t("That card may not be discarded here."),
    no_legal_discard: t("This hand has no card it may discard."),
    invalid_log: t("This game log cannot be read: a move or a deal in it is not one of this game."),
    wrong_deal_size: t("A hand in this game log was not dealt the right number of cards."),
    review_too_long: t("This log is too long to review at once: review fewer rounds."),
    no_drill_position: t("No question could be set from these choices: try another set."),
    missing_api_key: t("This service asks for an access key: enter yours under “API key”."),
    invalid_api_key: t("This access key is not accepted: check it under “API key”."),
    rate_limited: t("Too many questions in a short time: wait a moment and try again."),
    too_many_active_jobs: t("You already have analyses running: wait for one to finish."),
    share_not_found: t("No game is stored at this link: it may be cut short, or the game's time on the service is over."),
    share_deleted: t("This stored game was deleted by whoever stored it."),
    share_not_yours: t("This stored game was stored by someone else: only they may delete it."),
    share_too_large: t("This game is too large to store: store fewer rounds."),
    too_many_shares: t("You keep as many stored games as the service allows: delete one first."),
    job_not_shareable: t("The analysis shown can no longer be stored with the game: run it again, or store the game without it."),
    payload_too_large: t("This is too large to send at once."),
    job_failed: t("The analysis stopped on an error: try again."),
    jobs_unavailable: t("Analyses are not available right now: try again in a moment."),
    not_ready: t("The service is starting: try again in a moment."),
    not_replicated: t("The service could not save this safely: try again in a moment."),
  };
  if (words[problem.code]) return words[problem.code];
  if (problem.status === 0 || problem.status === undefined) return t("The page could not reach the service: check your connection and try again.");
  if (problem.status >= 500) return t("The service could not answer just now: try again in a moment.");
  return t("Something here is not as this game allows: check what you entered.");
}

/** A message of the service with each card code in it said by the card's name, the code a hint after it. */
export const namedCards = (text) => String(text).replace(CARD_IN_TEXT, (code) => cardName(code));

/** A problem's messages about one field (`errors[path]`), the field named as the page calls it: "Hand, card 3:
 * ...", the cards in them named. */
export function fieldMessage(path, list) {
  const said = namedCards([].concat(list).map((m) => (typeof m === "string" ? m : JSON.stringify(m))).join("; "));
  const name = fieldName(path);
  return name ? `${name}: ${said}` : said;
}

/** A request field's name as the page calls it (a problem's `errors` name the API's fields): null when the message
 * stands alone. */
export function fieldName(path) {
  const [root, index, ...rest] = String(path).split(".");
  const names = { hand: t("Hand"), exposed: t("Exposed melds"), visible: t("Cards seen"), public_card: t("Card on offer"),
    from_seat: t("From seat"), seats: t("Seats"), seat: t("My seat"), ruleset: t("Rule-set"), options: t("Rule options"),
    candidates: t("Cards to compare"), card_source: t("Where the card came from"), logs: t("Game log"), log: t("Game log"),
    events: t("Moves"), hands: t("Deal"), samples: t("Deals"), budget: t("Time"), seed: t("Deal number") };
  const field = names[root];
  if (!field) return null;
  // an item of a list (`hand.2`, `events.3`) counted from 1, as a player counts them
  const k = /^\d+$/.test(index || "") ? Number(index) + 1 : null;
  const card = () => t("{field}, card {k}", { field, k });
  const move = () => t("{field}, move {k}", { field, k });
  const seat = () => t("{field}, seat {k}", { field, k });
  const itemOf = { hand: card, visible: card, candidates: card, events: move, hands: seat }[root];
  const item = k !== null && itemOf ? itemOf() : field;
  // a field the service does not know (`events.3.foo`) by its own name, the one thing that tells it apart; not an
  // option's, which sits beside the option its label names
  const leaf = root === "options" ? undefined : rest.length ? rest[rest.length - 1] : k === null ? index : undefined;
  return leaf && !/^\d+$/.test(leaf) ? `${item} “${leaf}”` : item;
}

/** A problem as a block: what went wrong in the player's words; the service's own code and detail (the developer's
 * words, a link to what the code means for a client) folded away under "Details". */
export function problemBlock(problem) {
  const developer = problem.type && problem.type.startsWith("/problems/")
    ? h("a", { href: `${problem.type}?lang=${encodeURIComponent(lang)}`, target: "_blank", rel: "noopener" }, t("for developers")) : null;
  return h("div", { class: "problem", role: "alert", "data-code": problem.code || "" },
    h("strong", {}, problemWords(problem)),
    problem.code || problem.detail ? h("details", { class: "problem-details" }, h("summary", {}, t("Details")),
      h("p", {}, problem.code ? h("code", {}, problem.code) : null, " ", problem.detail || "", developer ? " " : null, developer)) : null);
}

/** Show a problem at the top of the page (for errors no field owns). */
export function pageError(problem) {
  const box = $("#page-error");
  if (!box) return;
  if (!problem) { box.hidden = true; box.textContent = ""; return; }
  fill(box, problemBlock(problem));
  box.hidden = false;
  if (problem.status === 401 || problem.status === 403) { // a key is needed: open its field
    const key = $("details.key");
    if (key) { key.open = true; $("#api-key").focus(); }
  }
}

/** Report anything unexpected on the page instead of leaving it blank. */
export function guard(fn) {
  return async (...args) => {
    try { return await fn(...args); } catch (error) {
      pageError(error instanceof Problem ? error : new Problem(0, { title: t("Error"), detail: String(error && error.message || error) }));
      return undefined;
    }
  };
}

/** A game's name as its players say it (GET /v1/rulesets' `game`; Chắn is Chắn in every language). */
export const gameName = (game) => (game === "Four Color Cards" ? t("Four Color Cards") : game);

/** A rule-set's name as a player says it: the game and the table it is played at. Its id (a code) is for
 * developers: the API's `ruleset`, shown nowhere a player reads. Each name is a literal message for the catalogs. */
export function rulesetName(id) {
  const names = { "bga-taiwan": t("Four Color Cards, Taiwanese rules (BGA)"),
    "cardavia-flowers": t("Four Color Cards with five flowers (Cardavia)"), "cardavia-chan": t("Chắn (Cardavia)") };
  return names[id] || id;
}

/** A rule-set in a list of choices (`ruleset`: GET /v1/rulesets' entry, or its id). */
export const rulesetLabel = (ruleset) => rulesetName(typeof ruleset === "string" ? ruleset : ruleset.id);

const numberFormats = new Map();
/** The page language's way of writing a number with `digits` decimals (a decimal comma in vi, it, pt, uk). */
function numberFormat(digits, style = "decimal") {
  const key = `${style}/${digits}`;
  if (!numberFormats.has(key)) {
    numberFormats.set(key, new Intl.NumberFormat(lang, { style, minimumFractionDigits: digits, maximumFractionDigits: digits }));
  }
  return numberFormats.get(key);
}

/** A number with `digits` decimals as the reader's language writes it; "–" for none. */
export const fmt = (x, digits = 2) => (x === null || x === undefined ? "–" : numberFormat(digits).format(Number(x)));
/** A share as a percentage with one decimal, as the reader's language writes it; "–" for none. */
export const pct = (x) => (x === null || x === undefined ? "–" : numberFormat(1, "percent").format(Number(x)));

/** A box that scrolls `table` sideways where it is wider than the screen: it takes the focus (so the keyboard
 * scrolls it) and is named `label`, as a scrolling region must be. */
export const scrollBox = (label, table) => h("div", { class: "scroll", tabindex: 0, role: "region", "aria-label": label }, table);

/** A ranked table that a phone shows as one block per row: each cell is labelled with its column's heading
 * (ui.css `table.stack`), so no row runs past the screen. */
export function stacked(table) {
  table.classList.add("stack");
  const heads = [...table.querySelectorAll("thead th")].map((th) => th.textContent);
  for (const row of table.querySelectorAll("tbody tr")) {
    [...row.children].forEach((cell, i) => { if (heads[i]) cell.dataset.label = heads[i]; });
  }
  return table;
}
