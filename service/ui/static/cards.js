// Cards drawn as SVG by this page: Four Color Cards show their colour, Chinese character and Latin code; Chắn
// cards their value, suit and Vietnamese name, red cards in red. The code is always written on the card, so no
// card is told apart by colour alone.

const SVG = "http://www.w3.org/2000/svg";

export const FOURCOLOR = {
  colours: { r: "red", y: "yellow", g: "green", w: "white" },
  characters: { G: ["將", "General"], A: ["士", "Advisor"], E: ["象", "Elephant"], C: ["車", "Chariot"],
    H: ["馬", "Horse"], P: ["包", "Cannon"], S: ["卒", "Soldier"] },
  // ink and paper per colour; yellow and white inks are dark enough to read on their paper
  ink: { r: "#b3261e", y: "#7a5a00", g: "#1e6b2f", w: "#2f3437" },
  paper: { r: "#fde8e6", y: "#fff5c2", g: "#e3f4e3", w: "#ffffff" },
  band: { r: "#d93b30", y: "#e8b400", g: "#2e8b44", w: "#9aa3a8" },
};

const FLOWERS = { F1: "花", F2: "花", F3: "花", F4: "花", F5: "花" }; // 花: flower; the code tells them apart

export const CHAN = {
  values: { 2: "Nhị", 3: "Tam", 4: "Tứ", 5: "Ngũ", 6: "Lục", 7: "Thất", 8: "Bát", 9: "Cửu" },
  suits: { m: "Vạn", s: "Sách", c: "Văn" },
  red: new Set(["8m", "9m", "8s", "9s", "CC"]),
};

/** The family of a card code ("chan" or "fourcolor"). */
export const familyOf = (code) => (/^([2-9][msc]|CC)$/.test(code) ? "chan" : "fourcolor");

/** Words a screen reader says for a card. */
export function cardName(code) {
  if (familyOf(code) === "chan") {
    if (code === "CC") return "Chi chi (CC), red";
    return `${CHAN.values[code[0]]} ${CHAN.suits[code[1]].toLowerCase()} (${code})${CHAN.red.has(code) ? ", red" : ""}`;
  }
  if (FLOWERS[code]) return `flower ${code}`;
  const colour = FOURCOLOR.colours[code[0]];
  const character = FOURCOLOR.characters[code[1]];
  return colour && character ? `${colour} ${character[1]} (${code})` : code;
}

function node(tag, attrs, text) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

function fourColorFace(svg, code) {
  const colour = code[0];
  if (FLOWERS[code]) {
    svg.append(node("rect", { x: 1, y: 1, width: 42, height: 70, rx: 5, fill: "#f3e8ff", stroke: "#6b3fa0", "stroke-width": 1.5 }));
    svg.append(node("text", { x: 22, y: 38, "text-anchor": "middle", "font-size": 22, fill: "#5b2a91", class: "glyph" }, FLOWERS[code]));
    svg.append(node("text", { x: 22, y: 64, "text-anchor": "middle", "font-size": 12, "font-weight": 700, fill: "#5b2a91" }, code));
    return;
  }
  const ink = FOURCOLOR.ink[colour] || "#000";
  svg.append(node("rect", { x: 1, y: 1, width: 42, height: 70, rx: 5, fill: FOURCOLOR.paper[colour] || "#fff", stroke: ink, "stroke-width": 1.5 }));
  svg.append(node("rect", { x: 4, y: 4, width: 36, height: 6, rx: 2, fill: FOURCOLOR.band[colour] || "#888" }));
  const character = FOURCOLOR.characters[code[1]];
  svg.append(node("text", { x: 22, y: 40, "text-anchor": "middle", "font-size": 24, fill: ink, class: "glyph" }, character ? character[0] : "?"));
  svg.append(node("text", { x: 22, y: 63, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: ink }, code));
}

function chanFace(svg, code) {
  const red = CHAN.red.has(code);
  const ink = red ? "#b3261e" : "#1d1d1d";
  svg.append(node("rect", { x: 1, y: 1, width: 42, height: 70, rx: 5, fill: red ? "#fff1ef" : "#fbfaf5", stroke: ink, "stroke-width": 1.5 }));
  if (code === "CC") {
    svg.append(node("text", { x: 22, y: 30, "text-anchor": "middle", "font-size": 12, "font-weight": 700, fill: ink }, "Chi"));
    svg.append(node("text", { x: 22, y: 44, "text-anchor": "middle", "font-size": 12, "font-weight": 700, fill: ink }, "chi"));
  } else {
    svg.append(node("text", { x: 22, y: 28, "text-anchor": "middle", "font-size": 22, "font-weight": 700, fill: ink }, code[0]));
    svg.append(node("text", { x: 22, y: 41, "text-anchor": "middle", "font-size": 9.5, fill: ink }, CHAN.values[code[0]]));
    svg.append(node("text", { x: 22, y: 52, "text-anchor": "middle", "font-size": 9.5, "font-style": "italic", fill: ink }, CHAN.suits[code[1]]));
  }
  svg.append(node("text", { x: 22, y: 66, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: ink }, code));
}

/** An SVG picture of a card (44 x 72 units), labelled for screen readers. */
export function cardSvg(code) {
  const svg = node("svg", { viewBox: "0 0 44 72", class: "card-face", role: "img", "aria-label": cardName(code) });
  svg.append(node("title", {}, cardName(code)));
  if (familyOf(code) === "chan") chanFace(svg, code); else fourColorFace(svg, code);
  return svg;
}

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
