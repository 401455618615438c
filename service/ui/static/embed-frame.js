// What makes an embed view (service/ui/embed.py) fit the page that frames it: it posts its content's height to that
// page whenever it changes, and a view's events (a drill's verdict) with `postToHost`. Messages go to the framing
// page's origin only, and only when that origin may frame this view (`data-frame-origins`, from EMBED_ORIGINS):
// never to "*". The framing origin is the one the host script (/embed/longcards.js) names in its `longcards:hello`
// (checked against the list), else the browser's record of it (`location.ancestorOrigins`, or the referrer).
//
// Messages (docs/api.md#embedding), every one with `source: "longcards"`:
//   to the host:   {type: "longcards:resize", height}       the content's height in CSS pixels
//                  {type: "longcards:verdict", ...}          a drill answered (embed-drill)
//   from the host: {type: "longcards:hello"}                 the host script's greeting: answers with a resize
const root = document.documentElement;
const allowed = (() => { try { return JSON.parse(root.dataset.frameOrigins || "[]"); } catch { return []; } })();
const framed = window.parent !== window;

const mayFrame = (origin) => Boolean(origin) && origin !== "null" && (allowed.includes("*") || allowed.includes(origin));

function browserOrigin() {
  const ancestors = window.location.ancestorOrigins;
  if (ancestors && ancestors.length) return ancestors[0];
  try { return document.referrer ? new URL(document.referrer).origin : null; } catch { return null; }
}

let host = framed && mayFrame(browserOrigin()) ? browserOrigin() : null;

/** Post a message to the framing page, if it may frame this view; `message.type` is one of the documented ones. */
export function postToHost(message) {
  if (host) window.parent.postMessage({ source: "longcards", ...message }, host);
}

let posted = 0;
function postHeight() {
  const height = Math.ceil(document.body.getBoundingClientRect().height
    + parseFloat(getComputedStyle(document.body).marginTop) + parseFloat(getComputedStyle(document.body).marginBottom));
  if (height === posted) return;
  posted = height;
  postToHost({ type: "longcards:resize", height });
}

/** Post the content's height now, if it changed: for a view that grows after its first paint (a stored game's round
 * drawn once its audit arrives), since a browser runs no ResizeObserver in a frame that is off screen. */
export function fit() {
  if (framed) postHeight();
}

window.addEventListener("message", (event) => {
  const data = event.data;
  if (event.source !== window.parent || !data || data.type !== "longcards:hello" || !mayFrame(event.origin)) return;
  host = event.origin;
  posted = 0;
  postHeight();
});

if (framed) {
  new ResizeObserver(postHeight).observe(document.body);
  window.addEventListener("load", postHeight);
}
