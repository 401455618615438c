// The replay viewer's state in the URL fragment, so a review can be sent as a link: where the logs came from (a
// simulation's parameters, or the log itself deflated and base64url-encoded), the round, the event and the
// analysis mode. The fragment never reaches the server: a shared log stays between the two browsers.

/** The most characters a deflated, encoded log may take in a link (browsers and chat tools cut longer ones). */
export const LINK_LIMIT = 8 * 1024;

/** The simulate form's fields, in the order the link writes them. */
export const SIMULATION = ["ruleset", "seats", "seed", "policy", "rounds"];

const MODES = ["exact", "deep"];

function toBase64url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** A text deflated (raw DEFLATE, the browser's CompressionStream) and base64url-encoded. */
export async function pack(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return toBase64url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/** The text `pack` packed; throws when the data is cut or changed. */
export async function unpack(packed) {
  const stream = new Blob([fromBase64url(packed)]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Response(stream).text();
}

const count = (value, least) => {
  const n = Number(value);
  return value !== null && Number.isInteger(n) && n >= least ? n : null;
};

/**
 * The view a fragment describes: `{source, round, position, mode, analysed}`; `source` is `{log}` (packed),
 * `{simulation: {ruleset, ...}}` or null. The link numbers rounds from 1 and events as the page does (1 is the
 * first event, 0 or none the deal); the page's indexes are from 0, the deal -1.
 */
export function readLink(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  let source = null;
  if (params.get("log")) source = { log: params.get("log") };
  else if (params.get("ruleset")) source = { simulation: Object.fromEntries(SIMULATION.map((k) => [k, params.get(k) ?? ""])) };
  const mode = params.get("mode");
  return {
    source,
    round: (count(params.get("round"), 1) ?? 1) - 1,
    position: (count(params.get("event"), 0) ?? 0) - 1,
    mode: MODES.includes(mode) ? mode : null,
    analysed: params.get("analysed") === "1",
  };
}

/** The fragment of a view (the inverse of `readLink`). */
export function writeLink({ source, round, position, mode, analysed }) {
  const params = new URLSearchParams();
  if (source && source.log) params.set("log", source.log);
  else if (source && source.simulation) for (const k of SIMULATION) params.set(k, source.simulation[k]);
  if (round > 0) params.set("round", String(round + 1));
  if (position >= 0) params.set("event", String(position + 1));
  if (mode) params.set("mode", mode);
  if (analysed) params.set("analysed", "1");
  return `#${params.toString()}`;
}
