// Cards drawn as SVG by this page, in the face the person chose for the game (faces.js): Four Color Cards in the
// traditional style (red and yellow print the red pieces 帥仕相俥傌炮兵, green and white the black pieces
// 將士象車馬包卒, each in its colour's ink) or simple (one character set, a colour band); Chắn cards with their Nho
// characters (rank above, suit below, red cards marked red) or simple (digit and Vietnamese name); or the code
// alone. The Latin code is written on every face, so no card is told apart by colour or script alone.
import { FACE_EVENT, faceFor } from "./faces.js";
import { lang, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

export const FOURCOLOR = {
  colours: { r: "red", y: "yellow", g: "green", w: "white" },
  characters: { G: ["將", "General"], A: ["士", "Advisor"], E: ["象", "Elephant"], C: ["車", "Chariot"],
    H: ["馬", "Horse"], P: ["包", "Cannon"], S: ["卒", "Soldier"] },
  // the red pieces of Xiangqi, which many decks print on their red and yellow cards
  redPieces: { G: "帥", A: "仕", E: "相", C: "俥", H: "傌", P: "炮", S: "兵" },
  redPieceColours: new Set(["r", "y"]),
  // ink and paper per colour; yellow and white inks are dark enough to read on their paper
  ink: { r: "#b3261e", y: "#7a5a00", g: "#1e6b2f", w: "#2f3437" },
  paper: { r: "#fde8e6", y: "#fff5c2", g: "#e3f4e3", w: "#ffffff" },
  band: { r: "#d93b30", y: "#e8b400", g: "#2e8b44", w: "#9aa3a8" },
};

// the words a screen reader says, each a literal message so the catalogs find it
const COLOUR_WORDS = () => ({ r: t("red"), y: t("yellow"), g: t("green"), w: t("white") });
const PIECE_WORDS = () => ({ G: t("General"), A: t("Advisor"), E: t("Elephant"), C: t("Chariot"), H: t("Horse"),
  P: t("Cannon"), S: t("Soldier") });

const FLOWERS = { F1: "花", F2: "花", F3: "花", F4: "花", F5: "花" }; // 花: flower; the code tells them apart

export const CHAN = {
  values: { 2: "Nhị", 3: "Tam", 4: "Tứ", 5: "Ngũ", 6: "Lục", 7: "Thất", 8: "Bát", 9: "Cửu" },
  suits: { m: "Vạn", s: "Sách", c: "Văn" },
  // the Nho (Chinese) characters printed on the cards: the rank above, the suit below
  rankGlyphs: { 2: "二", 3: "三", 4: "四", 5: "五", 6: "六", 7: "七", 8: "八", 9: "九" },
  suitGlyphs: { m: "萬", s: "索", c: "文" },
  red: new Set(["8m", "9m", "8s", "9s", "CC"]),
};

const PAPER = "#fbf7ec"; // the cream of printed cards
const RED_INK = "#b3261e";
const BLACK_INK = "#1d1d1d";

/** A card code in a text (`[rygw][GAECHPS]`, `[2-9][msc]`, `CC`, `F1`..`F5`), as a pattern's source: the pages
 * find codes in the service's texts with it (rulelinks.js, common.js). */
export const CARD_CODE = "(?:[rygw][GAECHPS]|[2-9][msc]|CC|F[1-5])";
/** Each card code standing alone in a text (not inside a word), for `matchAll` and `replace`. */
export const CARD_IN_TEXT = new RegExp(`(?<![\\w-])${CARD_CODE}(?![\\w-])`, "g");

/** The family of a card code ("chan" or "fourcolor"). */
export const familyOf = (code) => (/^([2-9][msc]|CC)$/.test(code) ? "chan" : "fourcolor");

/** Words a screen reader says for a card. */
export function cardName(code) {
  if (familyOf(code) === "chan") {
    if (code === "CC") return t("Chi chi (CC), red");
    const name = `${CHAN.values[code[0]]} ${CHAN.suits[code[1]].toLowerCase()}`;
    return CHAN.red.has(code) ? t("{name} ({code}), red", { name, code }) : t("{name} ({code})", { name, code });
  }
  if (FLOWERS[code]) return t("flower {code}", { code });
  const colour = FOURCOLOR.colours[code[0]];
  const character = FOURCOLOR.characters[code[1]];
  if (!colour || !character) return code;
  // a Chinese reader names the piece by the character printed on it: 帥 on a red or yellow card, 將 on the others
  const piece = lang === "zh-Hant"
    ? (FOURCOLOR.redPieceColours.has(code[0]) ? FOURCOLOR.redPieces[code[1]] : character[0]) : PIECE_WORDS()[code[1]];
  return t("{colour} {piece} ({code})", { colour: COLOUR_WORDS()[code[0]], piece, code });
}

/** Cards in words, each by its name with its code as a hint, copies of one card in a row counted once
 * ("3 × red Chariot (rC)"); a Chinese list is counted off with 、. */
export function cardNames(codes) {
  const counted = [];
  for (const code of codes) {
    const last = counted[counted.length - 1];
    if (last && last.code === code) last.n += 1; else counted.push({ code, n: 1 });
  }
  const comma = lang.startsWith("zh") ? "、" : ", ";
  return counted.map(({ code, n }) => (n > 1 ? t("{n} × {card}", { n, card: cardName(code) }) : cardName(code))).join(comma);
}

function node(tag, attrs, text) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

const text = (x, y, size, fill, content, extra = {}) =>
  node("text", { x, y, "text-anchor": "middle", "font-size": size, fill, ...extra }, content);

function flowerFace(svg, code) {
  svg.append(node("rect", { x: 1, y: 1, width: 42, height: 70, rx: 5, fill: "#f3e8ff", stroke: "#6b3fa0", "stroke-width": 1.5 }));
  svg.append(text(22, 38, 22, "#5b2a91", FLOWERS[code], { class: "glyph" }));
  svg.append(text(22, 64, 12, "#5b2a91", code, { "font-weight": 700, class: "code" }));
}

function simpleFourColorFace(svg, code) {
  const colour = code[0];
  const ink = FOURCOLOR.ink[colour] || "#000";
  svg.append(node("rect", { x: 1, y: 1, width: 42, height: 70, rx: 5, fill: FOURCOLOR.paper[colour] || "#fff", stroke: ink, "stroke-width": 1.5 }));
  svg.append(node("rect", { x: 4, y: 4, width: 36, height: 6, rx: 2, fill: FOURCOLOR.band[colour] || "#888" }));
  const character = FOURCOLOR.characters[code[1]];
  svg.append(text(22, 40, 24, ink, character ? character[0] : "?", { class: "glyph" }));
  svg.append(text(22, 63, 13, ink, code, { "font-weight": 700, class: "code" }));
}

// The traditional face: a long cream card framed in its colour, the piece's character in a ring as on a Xiangqi
// piece (red and yellow: the red pieces; green and white: the black ones), the code below.
function traditionalFourColorFace(svg, code) {
  const colour = code[0];
  const ink = FOURCOLOR.ink[colour] || "#000";
  const piece = FOURCOLOR.redPieceColours.has(colour) ? FOURCOLOR.redPieces[code[1]] : (FOURCOLOR.characters[code[1]] || ["?"])[0];
  svg.append(node("rect", { x: 1, y: 1, width: 42, height: 70, rx: 4, fill: PAPER, stroke: FOURCOLOR.band[colour] || "#888", "stroke-width": 2.5 }));
  svg.append(node("circle", { cx: 22, cy: 25, r: 16, fill: FOURCOLOR.paper[colour] || "#fff", stroke: ink, "stroke-width": 1.6 }));
  svg.append(node("circle", { cx: 22, cy: 25, r: 13, fill: "none", stroke: ink, "stroke-width": 0.6 }));
  svg.append(text(22, 33, 21, ink, piece || "?", { class: "glyph" }));
  svg.append(node("rect", { x: 6, y: 46, width: 32, height: 3, rx: 1.5, fill: FOURCOLOR.band[colour] || "#888" }));
  svg.append(text(22, 65, 13, ink, code, { "font-weight": 700, class: "code" }));
}

function simpleChanFace(svg, code) {
  const red = CHAN.red.has(code);
  const ink = red ? RED_INK : BLACK_INK;
  svg.append(node("rect", { x: 1, y: 1, width: 42, height: 70, rx: 5, fill: red ? "#fff1ef" : "#fbfaf5", stroke: ink, "stroke-width": 1.5 }));
  if (code === "CC") {
    svg.append(text(22, 30, 12, ink, "Chi", { "font-weight": 700 }));
    svg.append(text(22, 44, 12, ink, "chi", { "font-weight": 700 }));
  } else {
    svg.append(text(22, 28, 22, ink, code[0], { "font-weight": 700 }));
    svg.append(text(22, 41, 9.5, ink, CHAN.values[code[0]]));
    svg.append(text(22, 52, 9.5, ink, CHAN.suits[code[1]], { "font-style": "italic" }));
  }
  svg.append(text(22, 66, 11, ink, code, { "font-weight": 700, class: "code" }));
}

// A suit's mark between rank and suit: Văn a coin, Sách a string of cash, Vạn a lozenge.
function suitMark(svg, suit, ink) {
  if (suit === "c") {
    svg.append(node("circle", { cx: 22, cy: 31, r: 5, fill: "none", stroke: ink, "stroke-width": 1.2 }));
    svg.append(node("rect", { x: 20, y: 29, width: 4, height: 4, fill: "none", stroke: ink, "stroke-width": 1 }));
  } else if (suit === "s") {
    for (const x of [17, 22, 27]) svg.append(node("line", { x1: x, x2: x, y1: 26, y2: 36, stroke: ink, "stroke-width": 1.4, "stroke-dasharray": "2 1" }));
  } else {
    svg.append(node("path", { d: "M22 25 L27 31 L22 37 L17 31 Z", fill: "none", stroke: ink, "stroke-width": 1.2 }));
  }
}

// The Nho face: a long cream card, the rank's character at the top and the suit's at the foot of the picture, as
// Chắn cards print them; red cards in red ink with a red seal; the Chi chi its name and seal; the code below.
function nhoChanFace(svg, code) {
  const red = CHAN.red.has(code);
  const ink = red ? RED_INK : BLACK_INK;
  svg.append(node("rect", { x: 1, y: 1, width: 42, height: 70, rx: 4, fill: PAPER, stroke: ink, "stroke-width": 1.5 }));
  svg.append(node("rect", { x: 4, y: 4, width: 36, height: 50, rx: 2, fill: "none", stroke: ink, "stroke-width": 0.6 }));
  if (code === "CC") {
    svg.append(text(22, 22, 11, ink, "Chi", { "font-weight": 700 }));
    svg.append(text(22, 35, 11, ink, "chi", { "font-weight": 700 }));
    svg.append(node("circle", { cx: 22, cy: 45, r: 5, fill: RED_INK }));
  } else {
    svg.append(text(22, 20, 16, ink, CHAN.rankGlyphs[code[0]], { class: "glyph" }));
    suitMark(svg, code[1], ink);
    svg.append(text(22, 51, 14, ink, CHAN.suitGlyphs[code[1]], { class: "glyph" }));
    if (red) svg.append(node("circle", { cx: 36.5, cy: 9, r: 2.2, fill: RED_INK }));
  }
  svg.append(text(22, 66, 12, ink, code, { "font-weight": 700, class: "code" }));
}

function codeFace(svg, code) {
  const chan = familyOf(code) === "chan";
  const ink = chan ? (CHAN.red.has(code) ? RED_INK : BLACK_INK) : (FOURCOLOR.ink[code[0]] || "#5b2a91");
  svg.append(node("rect", { x: 1, y: 1, width: 42, height: 70, rx: 5, fill: "#ffffff", stroke: ink, "stroke-width": 1.5 }));
  svg.append(text(22, 42, 15, ink, code, { "font-weight": 700, class: "code" }));
}

const DRAW = {
  fourcolor: { traditional: traditionalFourColorFace, simple: simpleFourColorFace, code: codeFace },
  chan: { nho: nhoChanFace, simple: simpleChanFace, code: codeFace },
};

/** An SVG picture of a card (44 x 72 units) in the chosen face, labelled for screen readers. */
export function cardSvg(code) {
  const family = familyOf(code);
  const face = faceFor(family);
  // the face is the card's print (its code, Chắn's names): never a text to translate; the label says it in words
  const svg = node("svg", { viewBox: "0 0 44 72", class: `card-face face-${face}`, role: "img", "aria-label": cardName(code),
    translate: "no" });
  svg.append(node("title", {}, cardName(code)));
  if (FLOWERS[code] && face !== "code") flowerFace(svg, code);
  else (DRAW[family][face] || codeFace)(svg, code);
  return svg;
}

/** Draw every card under `root` again in the faces chosen now. */
export function redrawCards(root = document) {
  for (const svg of root.querySelectorAll(".card[data-code] > svg.card-face")) {
    svg.replaceWith(cardSvg(svg.parentElement.dataset.code));
  }
}

window.addEventListener(FACE_EVENT, () => redrawCards());

/** A card as a button (`onclick` given) or a plain picture. */
export function cardElement(code, { onclick = null, label = null, extra = null, classes = "" } = {}) {
  const wrapper = document.createElement(onclick ? "button" : "span");
  wrapper.className = `card ${classes}`.trim();
  wrapper.dataset.code = code;
  if (onclick) {
    wrapper.type = "button";
    wrapper.addEventListener("click", onclick);
    wrapper.setAttribute("aria-label", label || cardName(code));
  }
  wrapper.append(cardSvg(code));
  if (extra !== null) {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = extra;
    wrapper.append(badge);
  }
  return wrapper;
}

/** Card codes from free text: split on spaces, commas and semicolons. */
export const parseCodes = (text) => (text || "").split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean);
