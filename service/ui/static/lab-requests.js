// The hand lab's calls to the API: the rule-sets, then for every state of the lab its melds, hu and settlement,
// the claims on the public card and, with a hand on its turn, the ranked discards and the deeper search (a job).
// An answer that arrives after the lab has changed again is dropped; a problem goes next to its fields.
import { $, FieldErrors, Problem, api, fill, pageError, post, problemBlock, runJob } from "./common.js";
import { renderClaims, roleOf } from "./claims.js";
import { current, edits, generation, held, nextGeneration, state } from "./lab-state.js";
import { t } from "./i18n.js";
import { panel, renderDiscards, renderEmpty, renderHu, renderMelds, renderWaiting, searchView } from "./lab-panels.js";

const errors = new FieldErrors();
const setError = errors.set.bind(errors);
errors.set = (source, problem) => { // an option named by a problem: open the (on a phone, folded) options
  setError(source, problem);
  if ($("#options .field-error:not([hidden])")) $("#options-box").open = true;
};

const asProblem = (error) => (error instanceof Problem ? error : new Problem(0, { detail: String(error) }));

/** GET /v1/rulesets: every rule-set with its cards, copies, hand sizes, melds and options. */
export async function fetchRulesets() {
  return (await api("GET", "/v1/rulesets")).data.rulesets;
}

function base() {
  return { ruleset: state.ruleset, options: state.options };
}

function cards() {
  return { ...base(), hand: state.hand, exposed: state.exposed };
}

function discardsRequest() {
  return { ...cards(), visible: state.visible, seats: state.seats, seat: state.seat };
}

async function ask(source, container, path, body, render) {
  const mine = generation;
  container.classList.add("busy");
  try {
    const answer = await post(path, body);
    if (mine !== generation) return;
    errors.clear(source);
    render(answer);
  } catch (error) {
    if (mine !== generation) return;
    const problem = asProblem(error);
    errors.set(source, problem);
    fill(container, problemBlock(problem));
  } finally {
    if (mine === generation) container.classList.remove("busy");
  }
}

async function refreshHu() {
  const body = panel("hu-panel");
  const request = { ...cards(), public_card: state.public };
  // on a public card, the question the rules ask: may this seat win on this card, from this source?
  const claim = state.public ? { seat_role: roleOf(state.seat, state.from, state.seats, state.source), card_source: state.source } : {};
  const mine = generation;
  try {
    const answer = await post("/v1/hu", { ...request, ...claim });
    if (mine !== generation) return;
    errors.clear("hu");
    let settlement = null;
    if (answer.hu) {
      try {
        settlement = await post("/v1/settlements", { ...request, seats: state.seats, winner: state.seat });
        errors.clear("settlement");
      } catch (error) {
        if (!(error instanceof Problem)) throw error;
        errors.set("settlement", error);
        if (mine === generation) { renderHu(answer, null); body.append(problemBlock(error)); }
        return;
      }
    }
    if (mine === generation) renderHu(answer, settlement);
  } catch (error) {
    if (mine !== generation) return;
    const problem = asProblem(error);
    errors.set("hu", problem);
    fill(body, problemBlock(problem));
  }
}

/** Ask every panel's question about the lab as it is now. */
export function refresh() {
  nextGeneration();
  const rs = current();
  pageError(null);
  if (held() === 0 && !state.public) { // nothing to ask about: an empty hand is no win and settles nothing
    for (const source of ["melds", "hu", "settlement", "claims", "discards"]) errors.clear(source);
    renderEmpty();
    return;
  }
  ask("melds", panel("melds-panel"), "/v1/melds", cards(), renderMelds);
  refreshHu();
  if (state.public) {
    renderClaims({ state, rs, body: panel("claims-panel"), errors, generation: () => generation });
  } else {
    errors.clear("claims");
    renderWaiting("claims-panel", t("Pick a public card (target “public card”, or its code) to see the claims on it."));
  }
  const total = held();
  if (total === rs.hand_size.turn) {
    ask("discards", panel("discards-panel"), "/v1/discards", discardsRequest(), renderDiscards);
  } else {
    errors.clear("discards");
    renderWaiting("discards-panel", t("A discard is decided with {turn} cards in hand and exposed melds; this hand has {total}.",
      { turn: rs.hand_size.turn, total }));
  }
}

/** POST /v1/searches: the deeper search of the discards, a job followed to its end. */
export async function searchDeeper() {
  const request = { ...discardsRequest(), samples: Number($("#samples").value), time_budget: Number($("#budget").value),
    seed: Number($("#search-seed").value) };
  const mine = edits; // the lab this search is about: a result for an edited lab is never shown
  searchView.started();
  try {
    const result = await runJob("/v1/searches", request, (...args) => mine === edits && searchView.progress(...args),
      (p) => [p.deals_done || 0, p.deals_total || 0]);
    if (mine !== edits) return;
    errors.clear("search");
    searchView.finished(result);
  } catch (error) {
    if (mine !== edits) return;
    const problem = asProblem(error);
    errors.set("search", problem);
    searchView.failed(problem);
  } finally {
    searchView.done();
  }
}
