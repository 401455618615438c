// Drills: GET /v1/drills deals a position from a seeded round the advice plays; the drill's own request
// (/v1/discards or /v1/claims) ranks its options. The player picks a discard or an answer to the public card;
// drill-view.js draws the position and grades the answer. Nothing of the result shows before the answer. The URL
// holds the drill set and the drill's number, so a link deals the same drills; the statistics stay in this
// browser (drill-stats.js).
import { $, FieldErrors, api, bindApiKey, fill, guard, h, pageError, post, rulesetLabel, rulesetName } from "./common.js";
import { hinted } from "./rulelinks.js";
import { shareUrl, t } from "./i18n.js";
import {
  adviceWords, announce, answered, choiceButtons, choiceKey, clearResult, difficultyName, drawPosition, drawResult, drill, grade,
  keyText, load, options, unitOf,
} from "./drill-view.js";
import * as stats from "./drill-stats.js";

const errors = new FieldErrors(document);
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

// -- answering ----------------------------------------------------------------------------------------------------
function answer(key) {
  if (!drill || answered()) return;
  const result = grade(key);
  const saved = stats.record({ key: stats.keyOf(drill), link: linkOf({ ...readUrl() }), ruleset: drill.ruleset,
    difficulty: drill.difficulty, family: families[drill.ruleset], choice: key, adviceChoice: result.advice.key,
    ties: result.ties, answer: result.mine.text, advice: result.advice.text, loss: result.loss,
    unit: drill.loss_unit, correct: result.correct });
  drawResult(result);
  announce();
  drawStats(saved);
  $("#next").focus({ preventScroll: true }); // the keyboard goes on from "Next drill"; the eye reads the verdict
  $("#verdict").scrollIntoView({ block: "nearest" });
}

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
  clearResult(); // nothing of the result before the answer
  try {
    const query = new URLSearchParams({ ruleset: set.ruleset, difficulty: set.difficulty, kind: set.kind, seed: set.seed, index: set.n });
    const { data } = await api("GET", `/v1/drills?${query}`);
    const ranked = await post(data.request.path, data.request.body);
    if (mine !== generation) return;
    errors.clear("drill");
    pageError(null);
    load(data, ranked, families[set.ruleset]);
    drawPosition(answer);
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
  if (choiceKey(event, answer)) return;
  if (event.key === "n" || event.key === "N" || (event.key === "Enter" && answered() && event.target.tagName !== "BUTTON" && event.target.tagName !== "A")) {
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
