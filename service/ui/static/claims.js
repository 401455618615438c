// The claims panel of the hand lab: what the player may do with the public card.
import { Problem, fill, h, post, problemBlock } from "./common.js";
import { cardElement } from "./cards.js";

const row = (list) => h("span", { class: "cards small" }, (list || []).map((c) => cardElement(c)));

/** Ask for the claims on the public card and draw them in `body`. */
export async function renderClaims({ body, errors, generation, request }) {
  const mine = generation();
  body.classList.add("busy");
  try {
    const answer = await post("/v1/melds", request);
    if (mine !== generation()) return;
    errors.clear("claims");
    const claims = answer.claims || [];
    fill(body,
      h("p", {}, "Public card ", cardElement(answer.public_card, { classes: "tiny" }),
        answer.must_take ? h("strong", {}, " — must be taken") : ""),
      claims.length ? h("ol", { class: "claim-list" }, claims.map((claim) => h("li", {},
        h("span", { class: "kind" }, claim.kind), row(claim.cards),
        h("span", { class: "muted" }, ` priority ${claim.priority} (${claim.priority_class}), ${claim.points} pts`),
        claim.discards && claim.discards.length ? h("span", {}, " then discard one of ", row(claim.discards)) : null)))
        : h("p", { class: "muted" }, "no legal claim: pass"));
  } catch (error) {
    if (mine !== generation()) return;
    const problem = error instanceof Problem ? error : new Problem(0, { detail: String(error) });
    errors.set("claims", problem);
    fill(body, problemBlock(problem));
  } finally {
    body.classList.remove("busy");
  }
}
