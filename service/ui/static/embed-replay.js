// The stored game's embed view (/embed/replay/{id}, service/ui/embed_replay.py): the replay viewer's view of the
// game (replay-view.js) with the annotations of the analysis stored with it, opened at `?round=N&event=M`. The game
// and the rule-sets come in the page (`#embed-data`); each round's audit is read when the round is shown (GET
// /v1/shares/{id}/rounds/{n}, open: no key is read or sent). The footer's link opens the full viewer at the place
// shown. A game that is gone shows why (embed-view.js).
import { $, api, guard } from "./common.js";
import { fit } from "./embed-frame.js";
import { embedData, showProblem } from "./embed-view.js";
import { readLink, writeLink } from "./replay-link.js";
import { configure, open, viewer, wireViewer } from "./replay-view.js";

/** The full viewer's address of the game at the place shown: its own page, the round and event in the fragment. */
function openUrl(id) {
  const fragment = writeLink({ source: null, round: viewer.round, position: viewer.position });
  return `/ui/replay/${encodeURIComponent(id)}${fragment === "#" ? "" : fragment}`;
}

function start() {
  const data = embedData();
  if (data.problem) { showProblem(data.problem); return; }
  const { share } = data;
  const path = `/v1/shares/${encodeURIComponent(share.id)}/rounds`;
  const link = $(".embed-foot a");
  viewer.rulesets = data.rulesets;
  // after each step and once a round's audit is drawn: the footer's link follows, the host learns the new height
  configure({ shown: () => { link.href = openUrl(share.id); fit(); } });
  wireViewer();
  const at = readLink(location.search); // the same numbers as the viewer's links: rounds from 1, the deal event 0
  open({ logs: share.logs, analysis: share.analysis, round: at.round, position: at.position,
    fetch: (round) => api("GET", `${path}/${round}`).then((answer) => answer.data) });
}

guard(start)();
