// "Store this game" in the replay viewer: the game shown kept on the service (POST /v1/shares: its logs, a title and
// the analysis job shown) under an unguessable id, for a permanent link (`url`: the viewer opened at the game) and
// the embed code of its view for another site (`embed_url` in an iframe, or the host script's div). It is also how a
// log too large for a link is shared. A stored game opened in the viewer shows its link and codes at once.
import { $, Problem, fill, post, problemBlock } from "./common.js";
import { iframeCode, scriptCode, wireCopy } from "./embed-code.js";
import { lang, t } from "./i18n.js";

let current = () => ({ logs: [], job: null }); // the game shown: its logs and the id of the analysis job shown
let stored = null;  // the game stored last: {summary, logs, job}
let onStored = () => {};

/** The date an ISO time falls on, as the reader's language writes it. */
const day = (iso) => new Intl.DateTimeFormat(lang, { dateStyle: "long" }).format(new Date(iso));

/** Show what a stored game's `summary` (POST /v1/shares' answer, or GET /v1/shares/{id}'s) gives: the permanent
 * link and the embed codes; `logs` and `job` are what it holds (the game shown, when it was opened stored). */
export function showStored(summary, logs, job = null) {
  stored = { summary, logs, job };
  const title = summary.title || t("A stored game of Long Cards");
  $("#stored-link").value = summary.url;
  $("#embed-iframe").value = iframeCode(summary.embed_url, title, 720);
  $("#embed-script").value = scriptCode(new URL(summary.embed_url).origin, "share", summary.id);
  $("#stored-expiry").textContent = summary.expires_at ? t("Kept until {date}.", { date: day(summary.expires_at) })
    : t("Kept until it is deleted.");
  $("#stored-note").textContent = "";
  $("#stored").hidden = false;
  refreshStore();
}

/** Offer to store the game shown unless it is stored as shown (the same logs, and the analysis shown with them). */
export function refreshStore() {
  const game = current();
  const done = stored && stored.logs === game.logs && (!game.job || game.job === stored.job);
  $("#store-form").hidden = Boolean(done);
  if (!stored || stored.logs !== game.logs) { stored = null; $("#stored").hidden = true; }
  $("#store-analysis").hidden = !game.job;
}

async function storeGame() {
  const button = $("#store-game");
  const game = current();
  const title = $("#store-title").value.trim();
  button.disabled = true;
  fill($("#store-problem"));
  try {
    const summary = await post("/v1/shares", { logs: game.logs, title: title || null, job: game.job });
    showStored(summary, game.logs, game.job);
    onStored(summary);
    $("#stored-link").focus();
  } catch (error) {
    fill($("#store-problem"), problemBlock(error instanceof Problem ? error : new Problem(0, { detail: String(error) })));
  } finally {
    button.disabled = false;
  }
}

/** Wire the store controls: `game()` answers the game shown ({logs, job}); `stored(summary)` runs once it is kept. */
export function wireStore(game, stored_) {
  current = game;
  onStored = stored_;
  $("#store-game").addEventListener("click", storeGame);
  wireCopy($("#stored"), $("#stored-note"));
}
