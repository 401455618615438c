// The card faces a person picks, per game, kept in this browser (local storage) so every page draws the same
// cards: the hand lab has the selector, the replay viewer and the drill page follow the choice. A change redraws
// every card on the page (cards.js listens), in this tab and in the site's other open tabs.
import { t } from "./i18n.js";

const STORE = "longcards.faces";
export const FACE_EVENT = "longcards:faces";

/** The faces of each game, the default first. Every face writes the card's Latin code on the card. */
export const FACES = {
  fourcolor: [
    { id: "traditional", label: () => t("Traditional (帥 兵 on red, yellow)") },
    { id: "simple", label: () => t("Simple (將 卒, colour band)") },
    { id: "code", label: () => t("Code only") },
  ],
  chan: [
    { id: "nho", label: () => t("Nho characters (二 萬)") },
    { id: "simple", label: () => t("Simple (digit, Vietnamese name)") },
    { id: "code", label: () => t("Code only") },
  ],
};

function stored() {
  try { return JSON.parse(localStorage.getItem(STORE) || "{}") || {}; } catch { return {}; }
}

/** The face chosen for a game ("fourcolor" or "chan"): the stored choice when it is one of the game's faces. */
export function faceFor(family) {
  const choices = FACES[family] || [];
  // an embed view draws the faces its host page asked for (`?faces=`), when they are one of the game's
  const asked = typeof document === "undefined" ? "" : document.documentElement.dataset.faces;
  if (asked && choices.some((f) => f.id === asked)) return asked;
  const chosen = stored()[family];
  return choices.some((f) => f.id === chosen) ? chosen : (choices[0] || { id: "code" }).id;
}

/** Choose a game's face, keep it, and tell the page (cards.js redraws the cards). */
export function setFace(family, face) {
  const all = stored();
  all[family] = face;
  try { localStorage.setItem(STORE, JSON.stringify(all)); } catch { /* storage may be off: this page only */ }
  window.dispatchEvent(new CustomEvent(FACE_EVENT, { detail: { family, face } }));
}

// another tab changed the faces: follow it
window.addEventListener("storage", (event) => {
  if (event.key === STORE) window.dispatchEvent(new CustomEvent(FACE_EVENT, { detail: {} }));
});

/** A labelled select of a game's faces, kept in step with the stored choice. */
export function faceSelect(family, id = `faces-${family}`) {
  const select = document.createElement("select");
  select.id = id;
  select.dataset.family = family;
  for (const face of FACES[family]) {
    const option = document.createElement("option");
    option.value = face.id;
    option.textContent = face.label();
    select.append(option);
  }
  select.value = faceFor(family);
  select.addEventListener("change", () => setFace(family, select.value));
  window.addEventListener(FACE_EVENT, () => { select.value = faceFor(family); });
  return select;
}
