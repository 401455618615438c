// Plots drawn as SVG in the page. Seats are told apart by colour (a palette readable with colour-blindness),
// by line dash and marker shape, and by the legend's text; a bar is marked with its seat's number in a circle.
// A plot is drawn about as wide as it is shown (its viewBox follows the screen, up to 640), so its labels keep
// their CSS size (ui.css `.plot text`) on a phone instead of shrinking with a wide drawing.

import { lang, t } from "./i18n.js";
import { seatNumber } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
export const SEAT_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3"];
const MARKERS = ["circle", "square", "triangle", "diamond"];
const LINES = ["solid", "dashed", "dotted", "dash-dot"];
// the legend's words for them, each a literal message so the catalogs find it
const MARKER_WORDS = () => [t("circle"), t("square"), t("triangle"), t("diamond")];
const LINE_WORDS = () => [t("solid line"), t("dashed line"), t("dotted line"), t("dash-dot line")];

function node(tag, attrs = {}, text) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

function marker(kind, x, y, colour) {
  if (kind === "circle") return node("circle", { cx: x, cy: y, r: 3.5, fill: colour });
  if (kind === "square") return node("rect", { x: x - 3.5, y: y - 3.5, width: 7, height: 7, fill: colour });
  if (kind === "triangle") return node("path", { d: `M${x} ${y - 4.5} L${x + 4.5} ${y + 3.5} L${x - 4.5} ${y + 3.5} Z`, fill: colour });
  return node("path", { d: `M${x} ${y - 5} L${x + 5} ${y} L${x} ${y + 5} L${x - 5} ${y} Z`, fill: colour });
}

/** A seat's number in a circle (①, for the API's seat 0), as the bars' legend names a seat's mark. */
const circled = (seat) => String.fromCodePoint(0x2460 + seatNumber(seat) - 1);

/** The drawing's width: the screen's less the page's margins, between 300 and 640. */
function plotWidth() {
  const screen = typeof window === "undefined" ? 640 : window.innerWidth;
  return Math.round(Math.max(300, Math.min(640, screen - 40)));
}

function frame(width, height, title) {
  const svg = node("svg", { viewBox: `0 0 ${width} ${height}`, class: "plot", role: "img", "aria-label": title });
  svg.append(node("title", {}, title));
  return svg;
}

const numbers = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
/** A number as the page's language writes it (a decimal comma in vi, it, pt, uk), as its tables do. */
const number = (x) => numbers.format(x);

function niceRange(values) {
  let lo = Math.min(0, ...values), hi = Math.max(0, ...values);
  if (lo === hi) hi = lo + 1;
  const pad = (hi - lo) * 0.08;
  return [lo - (lo < 0 ? pad : 0), hi + pad];
}

function axes(svg, box, lo, hi, xLabels, yTitle) {
  const { left, top, right, bottom } = box;
  const y = (v) => bottom - ((v - lo) / (hi - lo)) * (bottom - top);
  svg.append(node("line", { x1: left, x2: left, y1: top, y2: bottom, stroke: "#555" }));
  svg.append(node("line", { x1: left, x2: right, y1: y(0), y2: y(0), stroke: "#555" }));
  for (const tick of [lo, (lo + hi) / 2, hi]) {
    svg.append(node("text", { x: left - 4, y: y(tick) + 4, "text-anchor": "end" }, number(tick)));
    svg.append(node("line", { x1: left, x2: right, y1: y(tick), y2: y(tick), stroke: "#e3e6ea" }));
  }
  svg.append(node("text", { x: 4, y: top - 6 }, yTitle));
  // as many labels as fit side by side at the labels' size (about 6.5 units a character at 11 px)
  const widest = Math.max(1, ...xLabels.map((label) => String(label).length));
  const fit = Math.max(1, Math.floor((right - left) / (widest * 6.5 + 10)));
  const every = Math.max(1, Math.ceil(xLabels.length / Math.min(fit, 12)));
  xLabels.forEach((label, i) => {
    if (i % every) return;
    const x = left + ((i + 0.5) / xLabels.length) * (right - left);
    svg.append(node("text", { x, y: bottom + 14, "text-anchor": "middle" }, label));
  });
  return y;
}

/** Lines of each seat's running points; `series`: [{name, values}], values over `xLabels`. */
export function linePlot(series, xLabels, title, yTitle) {
  const width = plotWidth(), height = 240, box = { left: 44, top: 22, right: width - 12, bottom: 206 };
  const svg = frame(width, height, title);
  const [lo, hi] = niceRange(series.flatMap((s) => s.values));
  const y = axes(svg, box, lo, hi, xLabels, yTitle);
  const x = (i) => box.left + ((i + 0.5) / xLabels.length) * (box.right - box.left);
  series.forEach((s, k) => {
    const colour = SEAT_COLOURS[k % 4];
    const points = s.values.map((v, i) => `${x(i)},${y(v)}`).join(" ");
    svg.append(node("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2.5, "stroke-dasharray": DASHES[k % 4] }));
    s.values.forEach((v, i) => {
      const m = marker(MARKERS[k % 4], x(i), y(v), colour);
      m.append(node("title", {}, `${s.name}, ${xLabels[i]}: ${v}`));
      svg.append(m);
    });
  });
  return svg;
}

/** Bars of each decision's expected loss; `bars`: [{label, value, seat, event}]; `onpick(event)` on a click. */
export function barPlot(bars, title, yTitle, onpick, current) {
  const width = plotWidth(), height = 220, box = { left: 52, top: 26, right: width - 12, bottom: 186 };
  const svg = frame(width, height, title);
  const [lo, hi] = niceRange(bars.map((b) => b.value));
  const y = axes(svg, box, lo, hi, bars.map((b) => b.label), yTitle);
  const step = (box.right - box.left) / Math.max(bars.length, 1);
  bars.forEach((bar, i) => {
    const colour = SEAT_COLOURS[bar.seat % 4];
    const x = box.left + i * step + step * 0.15;
    const top = Math.min(y(bar.value), y(0)), h = Math.max(Math.abs(y(bar.value) - y(0)), 1.5);
    const rect = node("rect", { x, y: top, width: Math.max(step * 0.7, 1), height: h, fill: colour,
      stroke: bar.event === current ? "#000" : "none", "stroke-width": 2, class: "bar", "data-event": bar.event });
    // the label names the event as the page numbers it (from 1)
    const seat = seatNumber(bar.seat); // the API's seats count from 0, players from 1
    rect.append(node("title", {}, `${t("event {label}, seat {seat}", { ...bar, seat })}${bar.kind ? ` (${bar.kind})` : ""}: ${t("expected loss {value}", { value: number(bar.value) })}`));
    if (onpick) { rect.style.cursor = "pointer"; rect.addEventListener("click", () => onpick(bar.event)); }
    svg.append(rect);
    if (step >= 12) { // the seat's number in a circle of its colour above the bar, where the bars leave room
      const cx = x + step * 0.35, cy = top - 8;
      const mark = node("g", { class: "seat-mark", color: colour, "aria-hidden": "true" }); // ui.css: currentColor
      mark.append(node("circle", { cx, cy, r: 6.5, fill: "#fff", stroke: colour, "stroke-width": 1.5 }),
        node("text", { x: cx, y: cy + 3.5, "text-anchor": "middle" }, seat));
      svg.append(mark);
    }
  });
  return svg;
}

/** The legend of the seats: colour swatch plus the words (with `lines`, the marker and line style too). */
export function legend(names, lines = true) {
  const box = document.createElement("div");
  box.className = "legend";
  names.forEach((name, k) => {
    const item = document.createElement("span");
    item.style.setProperty("--swatch", SEAT_COLOURS[k % 4]);
    item.textContent = lines ? t("{name} ({marker}, {line})", { name, marker: MARKER_WORDS()[k % 4], line: LINE_WORDS()[k % 4] })
      : t("{name} (bars marked {label})", { name, label: circled(k) });
    box.append(item);
  });
  return box;
}
