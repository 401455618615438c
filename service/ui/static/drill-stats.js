// The drills' statistics, kept in this browser (localStorage): every answered drill once, by its key (rule-set,
// difficulty, decisions, seed, number), so reloading a drill shows its grading again and never counts it twice.
// Accuracy and mean loss are over every answer kept; the streak counts correct answers in a row.

const STORE = "longcards.drill.stats";
/** Answers kept: the history shown is the last HISTORY of them. */
export const KEEP = 500;
export const HISTORY = 20;

const empty = () => ({ answers: [], streak: 0, best: 0 });

/** The statistics as stored (a fresh set when storage is off or holds something else). */
export function load() {
  try {
    const raw = JSON.parse(localStorage.getItem(STORE) || "null");
    if (raw && Array.isArray(raw.answers)) return { ...empty(), ...raw };
  } catch { /* storage off or unreadable: start afresh */ }
  return empty();
}

function save(stats) {
  try { localStorage.setItem(STORE, JSON.stringify(stats)); } catch { /* storage off: kept for this page only */ }
}

/** The key of a drill: what its link names. */
export const keyOf = (drill) => [drill.ruleset, drill.difficulty, drill.kind, drill.seed, drill.index].join("/");

/** The answer kept for this drill, if it was answered. */
export const answered = (stats, key) => stats.answers.find((a) => a.key === key) || null;

/**
 * Count an answer (`entry`: key, link, ruleset, difficulty, family, choice and adviceChoice (the options' keys),
 * ties (the options as good as the advice), answer and advice (their words then), loss and its unit, correct)
 * unless its drill was answered before; the statistics after it.
 */
export function record(entry) {
  const stats = load();
  if (answered(stats, entry.key)) return stats;
  stats.answers.push({ ...entry, at: Date.now() });
  if (stats.answers.length > KEEP) stats.answers.splice(0, stats.answers.length - KEEP);
  stats.streak = entry.correct ? stats.streak + 1 : 0;
  stats.best = Math.max(stats.best, stats.streak);
  save(stats);
  return stats;
}

/** Forget every answer. */
export function reset() {
  save(empty());
  return empty();
}

/** Accuracy (null before any answer), mean loss, answers counted, current and best streak. Losses of different
 * units (points; wins where nobody pays) are never added: `meanLosses` holds the mean of each unit's answers
 * ("" for answers kept before their unit was). */
export function summary(stats) {
  const n = stats.answers.length;
  const right = stats.answers.filter((a) => a.correct).length;
  const loss = stats.answers.reduce((sum, a) => sum + (a.loss || 0), 0);
  const byUnit = new Map();
  for (const a of stats.answers) {
    const unit = a.unit || "";
    const [sum, count] = byUnit.get(unit) || [0, 0];
    byUnit.set(unit, [sum + Math.max(0, a.loss || 0), count + 1]);
  }
  const meanLosses = Object.fromEntries([...byUnit].map(([unit, [sum, count]]) => [unit, sum / count]));
  return { n, right, accuracy: n ? right / n : null, meanLoss: n ? loss / n : null, meanLosses, streak: stats.streak,
    best: stats.best };
}
