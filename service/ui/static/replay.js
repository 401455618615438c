// The replay viewer: load logs (a file, a paste, a simulation, or the stored game of /ui/replay/{id}), audit each
// with the table after every event, step through them (replay-view.js), annotate every decision with the replay
// analysis job's review, and store the game for a permanent link and an embed code (replay-store.js). The view (the
// logs' source, the round, the event, the analysis mode) is kept in the URL fragment, so a link reopens it
// (replay-link.js); a stored game's link is its own address.
import { $, FieldErrors, Problem, api, bindApiKey, fill, fmt, guard, h, pageError, post, problemBlock, rulesetLabel, runJob } from "./common.js";
import { shareUrl, t } from "./i18n.js";
import { LINK_LIMIT, SIMULATION, TooLarge, UNPACKED_LIMIT, pack, readLink, unpack, writeLink } from "./replay-link.js";
import { refreshStore, showStored, wireStore } from "./replay-store.js";
import { configure, moveTo, open, setAnalysis, viewer, wireViewer } from "./replay-view.js";

const errors = new FieldErrors(document, "log");
let analysedMode = null; // the review mode the analysis shown ran with
let offered = null;   // the review mode a link offered its analysis in, until the visitor runs one
let job = null;       // the id of the analysis job shown (stored with the game), null for a stored game's own
// where the logs came from, for the link: {log: packed} | {simulation: {...}} | {tooLarge: n} | {share: summary}
let source = null;
/** The stored game this page was opened at (`/ui/replay/{id}`), if any. */
const SHARE = $("main").dataset.share || null;

// -- loading -----------------------------------------------------------------------------------------------
function logsOf(document_) {
  if (Array.isArray(document_)) return document_;
  if (document_ && Array.isArray(document_.logs)) return document_.logs;
  if (document_ && typeof document_ === "object") return [document_];
  throw new Problem(0, { code: "not_a_log", detail: t("expected a game log, a list of logs or {\"logs\": [...]}") });
}

/** Show a game (`open` of replay-view.js) loaded from `origin`, at `view`; the page's own parts follow it. */
function showGame(game, origin, view) {
  analysedMode = game.analysis ? game.analysis.review : null;
  offered = null; job = null; source = origin;
  for (const name of ["file", "paste", "simulate", "log", "analysis"]) errors.clear(name);
  $("#viewer").hidden = false;
  fill($("#analysis"));
  $("#analysis-status").textContent = game.analysis ? t("This game was stored with its analysis.") : "";
  $("#analysis-progress").hidden = true;
  if (game.analysis && [...$("#review-mode").options].some((o) => o.value === game.analysis.review)) $("#review-mode").value = game.analysis.review;
  open({ ...game, round: view.round, position: view.position });
  drawTitle();
  drawOffer();
  refreshStore();
  writeUrl();
}

/** A stored game's title, above its rounds. */
function drawTitle() {
  const title = source.share ? source.share.title : null;
  $("#game-title").textContent = title || "";
  $("#game-title").hidden = !title;
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
  errors.clear(from);
  showGame({ logs: found, audits: answers }, origin, view);
  toViewer();
}

function toViewer() {
  $("#viewer").scrollIntoView({ block: "start" }); // the loaders are done with: show the round and its events
  $("#events").focus({ preventScroll: true }); // the arrow keys step from here on
}

/** Open the stored game `id` (GET /v1/shares/{id}, open without a key) at `view`; each round's audit is fetched
 * when the round is shown (GET /v1/shares/{id}/rounds/{n}). */
async function openShare(id, view) {
  const path = `/v1/shares/${encodeURIComponent(id)}`;
  const stored = (await api("GET", path)).data;
  const fetch = (round) => api("GET", `${path}/rounds/${round}`).then((answer) => answer.data);
  showGame({ logs: stored.logs, analysis: stored.analysis, fetch }, { share: stored }, view);
  showStored(stored, stored.logs);
  toViewer();
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
  const linked = source && (source.log || source.simulation) ? source : null; // a stored game is in the path
  return { source: linked, round: viewer.round, position: viewer.position, mode,
    analysed: viewer.analysis ? analysedMode === mode : offered === mode };
}

/** Put the view in the URL: replaced, not pushed, so Back leaves the viewer instead of undoing each step. A stored
 * game's address is its own (`/ui/replay/{id}`); any other game's is the viewer's. */
function writeUrl() {
  clearTimeout(pending); pending = null;
  if (!viewer.logs.length) return;
  written = writeLink(view());
  const path = source.share ? `/ui/replay/${encodeURIComponent(source.share.id)}` : "/ui/replay";
  if (written !== location.hash || path !== location.pathname) history.replaceState(history.state, "", `${path}${location.search}${written}`);
  const link = $("#share-link");
  link.value = shareUrl(); // the reader opens it in their own language
  const shareable = !source.tooLarge;
  link.hidden = !shareable;
  $("#copy-link").disabled = !shareable;
  $("#share-note").textContent = shareable ? "" : t(
    "This log is too large for a link ({size} KB packed; a link holds at most {limit} KB): store the game for a permanent link.",
    { size: fmt(source.tooLarge / 1024, 1), limit: LINK_LIMIT / 1024 });
  if (!shareable) $("#store").open = true;
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

/** Load the game a link's `source` names (a packed log or a simulation) at `at`. */
async function openSource(linked, at) {
  if (linked.log) {
    await reportLoad("paste")(async () => {
      let text;
      try { text = await unpack(linked.log); } catch (error) {
        if (error instanceof TooLarge) throw new Problem(0, { code: "link_too_large", detail: tooLargeText(error) });
        throw new Problem(0, { code: "broken_link", detail: t("the link's log cannot be read: the link was cut or changed") });
      }
      $("#paste").value = text;
      await loadText(text, "paste", at);
    });
  } else {
    const fields = { ruleset: "#sim-ruleset", seats: "#sim-seats", seed: "#sim-seed", policy: "#sim-policy", rounds: "#sim-rounds" };
    for (const k of SIMULATION) $(fields[k]).value = linked.simulation[k];
    await reportLoad("simulate")(() => simulate(at));
  }
}

/**
 * Open the view the URL's fragment describes (on arrival, or when another link is pasted into this tab); on arrival
 * at a stored game's address, the game. A link never runs the analysis by itself: it is a job that spends the
 * visitor's quota, so it is offered for a click.
 */
async function openLink(arriving = false) {
  const linked = readLink(location.hash);
  written = location.hash;
  if (linked.mode) $("#review-mode").value = linked.mode;
  const at = { round: linked.round, position: linked.position };
  const before = viewer.logs;
  if (linked.source) await openSource(linked.source, at);
  else if (arriving && SHARE) await openShare(SHARE, at);
  else if (source && source.share) moveTo(at.round, at.position); // another round or event of the game shown
  if (linked.analysed && viewer.logs !== before && !(viewer.analysis && analysedMode === $("#review-mode").value)) {
    offered = $("#review-mode").value;
    drawOffer();
    writeUrl();
  }
}

/** Say that the link was shared with its analysis in the review mode shown, and that a click runs it. */
function drawOffer() {
  const note = $("#analysis-offer");
  note.hidden = (viewer.analysis !== null && analysedMode === $("#review-mode").value) || offered !== $("#review-mode").value;
  note.textContent = note.hidden ? "" : t("This link was shared with its analysis: click Analyse to run it.");
}

// -- the analysis job --------------------------------------------------------------------------------------
async function analyse() {
  const button = $("#analyse"), bar = $("#analysis-progress"), status = $("#analysis-status");
  const mode = $("#review-mode").value;
  const logs = viewer.logs;
  let running = null;
  button.disabled = true; bar.hidden = false; bar.value = 0; status.textContent = t("queued…");
  offered = null;
  drawOffer();
  try {
    const result = await runJob("/v1/replays", { logs, review: { mode } }, (fraction, progress) => {
      running = progress.id;
      bar.value = fraction;
      const p = progress.progress;
      status.textContent = mode === "deep" ? t("{status}: {done} / {total} decisions", { status: progress.status, done: p.decisions_done, total: p.decisions_total })
        : t("{status}: {done} / {total} events", { status: progress.status, done: p.events_done, total: p.events_total });
    }, (p) => (mode === "deep" ? [p.decisions_done || 0, p.decisions_total || 0] : [p.events_done || 0, p.events_total || 0]));
    if (viewer.logs !== logs) return; // another game was loaded meanwhile
    analysedMode = mode;
    job = running;
    errors.clear("analysis");
    status.textContent = t("finished: every discard is annotated in the event list");
    setAnalysis(result);
    refreshStore();
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

// -- wiring ------------------------------------------------------------------------------------------------
async function loadRulesets() {
  viewer.rulesets = (await api("GET", "/v1/rulesets")).data.rulesets;
  const chosen = $("#sim-ruleset").value;
  fill($("#sim-ruleset"), ...viewer.rulesets.map((r) => h("option", { value: r.id }, rulesetLabel(r))));
  if (chosen) $("#sim-ruleset").value = chosen;
}

function wire() {
  bindApiKey($("#api-key"), () => { pageError(null); if (!viewer.rulesets.length) guard(start)(); });
  $("#sim-ruleset").addEventListener("change", () => {
    const rs = viewer.rulesets.find((r) => r.id === $("#sim-ruleset").value);
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
  configure({ shown: scheduleUrl, roundChosen: writeUrl });
  wireViewer();
  $("#analyse").addEventListener("click", guard(analyse));
  $("#review-mode").addEventListener("change", () => { drawOffer(); writeUrl(); });
  $("#copy-link").addEventListener("click", guard(copyLink));
  // a game stored from this page: its address becomes the stored game's own
  wireStore(() => ({ logs: viewer.logs, job }), (summary) => { source = { share: summary }; drawTitle(); writeUrl(); });
  window.addEventListener("hashchange", () => { if (location.hash !== written) guard(openLink)(); });
}

// the rule-sets first: a link to a simulation names one of them
async function start() {
  await loadRulesets();
  await openLink(true);
}

wire();
guard(start)();
