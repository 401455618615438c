// The drill embed view (/embed/drill): one drill to answer, drawn and graded by drill-view.js as the drill page
// does it, from the drill and its ranked options the server computed (`#embed-data`, service/ui/embed_views.py). It
// asks the API nothing and keeps no statistics (the drill page's are the site's own); an answer is posted to the
// framing page as a `longcards:verdict` message (embed-frame.js), for a host page to listen to.
import { $, rulesetName } from "./common.js";
import {
  announce, answered, choiceKey, difficultyName, drawPosition, drawResult, drill, grade, load,
} from "./drill-view.js";
import { postToHost } from "./embed-frame.js";
import { embedData, showProblem } from "./embed-view.js";
import { t } from "./i18n.js";

function answer(key) {
  if (answered()) return;
  const result = grade(key);
  drawResult(result);
  announce();
  $("#result-title").focus({ preventScroll: true }); // the host page is never scrolled by the view
  postToHost({ type: "longcards:verdict", ruleset: drill.ruleset, seed: drill.seed, index: drill.index,
    difficulty: drill.difficulty, kind: drill.kind, answer: key, best: result.best.key, correct: result.correct,
    loss: Math.max(0, result.loss), loss_unit: drill.loss_unit });
}

function start(data) {
  load(data.drill, data.ranked, data.family);
  $("#position-no").textContent = [rulesetName(drill.ruleset), difficultyName(drill.difficulty),
    t("drill {n} of seed {seed}", { n: drill.index + 1, seed: drill.seed })].join(" · ");
  drawPosition(answer);
  document.addEventListener("keydown", (event) => {
    if (!event.altKey && !event.ctrlKey && !event.metaKey) choiceKey(event, answer);
  });
}

const data = embedData();
if (data.problem) showProblem(data.problem); else start(data);
