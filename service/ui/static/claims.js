// The claims panel of the hand lab: what to do with the public card. With a hand between turns (the rule-set's
// resting hand size, counted with the exposed melds) it asks POST /v1/claims for the advice: pass and every legal
// claim ranked, each with the discard to follow. Any other hand gets the legal claims of POST /v1/melds. The hand
// embed view (embed-hand.js) draws the same answers with `adviceTable` and `legalClaims`.
import { Problem, fill, fmt, h, post, problemBlock, scrollBox, stacked } from "./common.js";
import { cardElement } from "./cards.js";
import { ruleLinks } from "./rulelinks.js";
import { t, tn } from "./i18n.js";
import { kindName } from "./lab-panels.js";
import { roleName, turnedUp } from "./words.js";

const row = (list) => h("span", { class: "cards small" }, (list || []).map((c) => cardElement(c)));

/** The seat's role on a card from `from` (drawer, discarder, next or other). */
export function roleOf(seat, from, seats, source) {
  if (seat === from) return turnedUp(source) ? "drawer" : "discarder";
  return seat === (from + 1) % seats ? "next" : "other";
}

/** A claim's priority class in the game's words (docs/rules.md#fc-priority, #fl-priority, #chan-priority). */
function priorityClassName(cls) {
  const fourColor = { quad_triple: t("quad or triple"), chi: t("chi"), drawer_hu: t("hu by the drawer"),
    drawer_meld: t("a meld by the drawer"), next_mixed: t("a mixed meld by the next seat") };
  return fourColor[cls] || kindName(cls);
}

function waits(option) {
  if (!option.waits || !option.waits.length) return h("span", { class: "muted" }, "–");
  return h("span", {}, option.waits.map((w) => h("span", { class: "wait" }, cardElement(w.card, { classes: "tiny" }), ` ×${w.unseen}`)));
}

/** POST /v1/claims: the advice, pass and every legal claim ranked. */
export function adviceTable(answer) {
  return h("div", {},
    h("p", { class: "verdict" }, t("Advice: {advice}", { advice: kindName(answer.advice) }), answer.forced ? ` ${t("(the card must be taken)")}` : "",
      h("span", { class: "muted" }, " — ", turnedUp(answer.card_source)
        ? t("you are {role} on this stock card", { role: roleName(answer.seat_role) })
        : t("you are {role} on this discard", { role: roleName(answer.seat_role) }))),
    scrollBox(t("Claims ranked"), stacked(h("table", { class: "ranked claim-advice" },
      h("thead", {}, h("tr", {}, [t("rank"), t("choice"), t("then discard"), t("distance"), t("waits"), t("expected gain"), t("why")]
        .map((head) => h("th", { scope: "col" }, head)))),
      h("tbody", {}, answer.choices.map((choice) => h("tr", { class: choice.rank === 1 ? "best" : "", "data-kind": choice.kind },
        h("td", { class: "num" }, choice.rank),
        h("td", {}, h("span", { class: "kind" }, kindName(choice.kind)), row(choice.cards)),
        h("td", {}, choice.follow ? cardElement(choice.follow.card, { classes: "tiny" }) : h("span", { class: "muted" }, "–")),
        h("td", { class: "num" }, choice.distance < 0 ? t("win") : choice.distance), h("td", { class: "waits" }, waits(choice)),
        h("td", { class: "num" }, choice.gain !== null && choice.gain !== undefined ? t("{gain} (win)", { gain: choice.gain }) : fmt(choice.expected_gain, 3)),
        h("td", { class: "reason" }, ruleLinks(choice.reason)))))))));
}

/** POST /v1/melds on a public card, for a hand of `total` cards that is not between turns (`size`): the legal
 * claims. */
export function legalClaims(answer, size, total) {
  const claims = answer.claims || [];
  return h("div", {},
    h("p", { class: "muted" }, t("Advice is given for a hand between turns: {size} cards with the exposed melds (this one has {total}). The legal claims:",
      { size, total })),
    h("p", {}, t("Public card"), " ", cardElement(answer.public_card, { classes: "tiny" }), " — ", t("you are {role}", { role: roleName(answer.seat_role) }),
      answer.must_take ? h("strong", {}, " — ", t("it must be taken")) : ""),
    claims.length ? h("ol", { class: "claim-list" }, claims.map((claim) => h("li", { "data-kind": claim.kind },
      h("span", { class: "kind" }, kindName(claim.kind)), row(claim.cards),
      h("span", { class: "muted" }, " ", tn("priority {priority} ({cls}), {n} pt", "priority {priority} ({cls}), {n} pts",
        claim.points, { priority: claim.priority, cls: priorityClassName(claim.priority_class) })),
      claim.discards && claim.discards.length ? h("span", {}, " ", t("then discard one of"), " ", row(claim.discards)) : null)))
      : h("p", { class: "muted" }, t("no legal claim: pass")));
}

/** Ask for the claims on the public card and draw them in `body`. */
export async function renderClaims({ state, rs, body, errors, generation }) {
  const mine = generation();
  const total = state.hand.length + state.exposed.reduce((n, m) => n + m.cards.length, 0);
  const size = rs.hand_size.resting; // a claim is decided between turns; the public card is not counted
  const base = { ruleset: state.ruleset, options: state.options, hand: state.hand, exposed: state.exposed,
    public_card: state.public };
  body.classList.add("busy");
  try {
    let content;
    if (total === size) {
      const answer = await post("/v1/claims", { ...base, visible: state.visible, seats: state.seats, seat: state.seat,
        from_seat: state.from, card_source: state.source });
      content = adviceTable(answer);
    } else {
      // both families take the seat's role (Chắn: only the next seat captures a discard) and the card's source
      const context = { seat_role: roleOf(state.seat, state.from, state.seats, state.source), card_source: state.source };
      content = legalClaims(await post("/v1/melds", { ...base, ...context }), size, total);
    }
    if (mine !== generation()) return;
    errors.clear("claims");
    fill(body, content);
  } catch (error) {
    if (mine !== generation()) return;
    const problem = error instanceof Problem ? error : new Problem(0, { detail: String(error) });
    errors.set("claims", problem);
    fill(body, problemBlock(problem));
  } finally {
    body.classList.remove("busy");
  }
}
