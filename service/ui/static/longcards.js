// The host script of the embed views, served as /embed/longcards.js (service/ui/embed_replay.py; docs/ui.md
// "Embedding"). A page of another site includes it once, from the service whose views it shows:
//
//   <div data-longcards-share="ID" data-lang="vi" data-theme="dark" data-round="2" data-event="14"></div>
//   <div data-longcards-hand="ruleset=bga-taiwan&hand=rG,rA,..."></div>   (the hand lab's own query)
//   <div data-longcards-drill="ruleset=bga-taiwan&difficulty=easy&seed=3"></div>   (the drill page's)
//   <script src="SERVICE/embed/longcards.js" async></script>    (SERVICE: the service's address)
//
// Each such div becomes an iframe of its view on the service this script came from (`data-lang`, `data-theme`,
// `data-faces` and, for a stored game, `data-round` and `data-event` are the view's own parameters; `data-title`
// names the frame), as wide as the div and as tall as the view's content: the view posts its height
// (embed-frame.js), and only a message from the service's origin and from that very iframe is heeded. A drill's
// verdict is dispatched on its div as a DOM event "longcards:verdict" (`detail`: the message). A page that adds
// divs later embeds them with `window.LongCards.scan()`, the one global this script defines.
(() => {
  if (window.LongCards) { window.LongCards.scan(); return; }
  const script = document.currentScript;
  if (!script) return;
  const origin = new URL(script.src, window.location.href).origin;
  const SANDBOX = "allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox";
  const SHARED = ["lang", "theme", "faces"]; // the parameters every view takes
  // each view: its div's attribute (dataset name), its address on the service, its own parameters, its first height
  const VIEWS = [
    { name: "longcardsShare", path: (value) => `/embed/replay/${encodeURIComponent(value)}`, params: ["round", "event"], height: 640 },
    { name: "longcardsHand", path: () => "/embed/hand", query: true, params: [], height: 520 },
    { name: "longcardsDrill", path: () => "/embed/drill", query: true, params: [], height: 560 },
  ];
  const frames = []; // {frame, div} of every iframe made

  function source(div, view) {
    const value = div.dataset[view.name].trim();
    const url = new URL(view.path(value), origin);
    if (view.query) url.search = new URLSearchParams(value.replace(/^\?/, "")).toString();
    for (const name of [...SHARED, ...view.params]) {
      const given = div.dataset[name];
      if (given) url.searchParams.set(name, given);
    }
    return url.href;
  }

  function embed(div, view) {
    div.dataset.longcardsEmbedded = "";
    const frame = document.createElement("iframe");
    frame.src = source(div, view);
    frame.title = div.dataset.title || "Long Cards";
    frame.loading = "lazy";
    frame.setAttribute("sandbox", SANDBOX);
    frame.height = String(view.height);
    Object.assign(frame.style, { display: "block", width: "100%", border: "0" });
    // the view learns which page frames it: its height goes to this origin from then on
    frame.addEventListener("load", () => frame.contentWindow.postMessage({ source: "longcards", type: "longcards:hello" }, origin));
    div.replaceChildren(frame);
    frames.push({ frame, div });
  }

  /** Embed every div of a view not embedded yet. */
  function scan() {
    for (const view of VIEWS) {
      const attribute = `data-${view.name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
      for (const div of document.querySelectorAll(`[${attribute}]:not([data-longcards-embedded])`)) embed(div, view);
    }
  }

  window.addEventListener("message", (event) => {
    const data = event.data;
    if (event.origin !== origin || !data || data.source !== "longcards") return;
    const found = frames.find((f) => f.frame.contentWindow === event.source);
    if (!found) return;
    if (data.type === "longcards:resize" && Number.isFinite(data.height) && data.height > 0) {
      found.frame.style.height = `${Math.min(Math.ceil(data.height), 20000)}px`;
    } else if (data.type === "longcards:verdict") {
      found.div.dispatchEvent(new CustomEvent("longcards:verdict", { detail: data, bubbles: true }));
    }
  });

  window.LongCards = Object.freeze({ scan });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan);
  else scan();
})();
