// What the hand and drill embed views (embed-hand.js, embed-drill.js) share: the answers the server computed for
// them (the JSON block `#embed-data`, service/ui/embed_views.py), and the page saying why a view cannot be shown (the
// API refused its query): the problem in the player's words, then each field it names by its name on the page, its
// code and detail folded under "Details" as every page folds them.
import { $, Problem, fill, fieldMessage, h, problemBlock } from "./common.js";

/** The view's data: what to draw, or `{problem}`. */
export function embedData() {
  return JSON.parse($("#embed-data").textContent);
}

/** Draw why the view cannot be shown (`problem`: the API's problem document). */
export function showProblem(problem) {
  const refused = new Problem(problem.status || 0, problem);
  const fields = Object.entries(refused.errors);
  fill($("#problem .body"), problemBlock(refused),
    fields.length ? h("ul", { class: "field-errors" }, fields.map(([path, list]) => h("li", { "data-field": path }, fieldMessage(path, list)))) : null);
}
