// The replay viewer's state in the URL fragment, so a review can be sent as a link: where the logs came from (a
// simulation's parameters, or the log itself deflated and base64url-encoded), the round, the event and the
// analysis mode. The fragment never reaches the server: a shared log stays between the two browsers.

/**
 * The most characters a deflated, encoded log may take in a link (browsers and chat tools cut longer ones). The
 * page writes no longer one, and reads no longer one either.
 */
export const LINK_LIMIT = 8 * 1024;

/**
 * The most bytes a link's log may inflate to: the largest request body the API accepts (MAX_CONTENT_LENGTH,
 * service/config.py), since a larger log could not even be audited. Deflate packs up to about 1,000 to 1, so
 * 8 KB of link could otherwise unpack to megabytes of text (a zip bomb).
 */
export const UNPACKED_LIMIT = 2 * 1024 * 1024;

/** Feed the inflater this many packed bytes at a time, so that one read inflates at most about 1 MB. */
const SLICE = 1024;

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

/** A link's log over LINK_LIMIT packed (`packed` characters) or over UNPACKED_LIMIT unpacked (`packed` null). */
export class TooLarge extends Error {
  constructor(packed) {
    super(packed === null ? "the link's log unpacks past the limit" : "the link's log is too long");
    this.packed = packed;
  }
}

// The packed bytes a slice at a time, on demand: the inflater only runs as far as the reader reads.
function sliced(bytes) {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) controller.close();
      else controller.enqueue(bytes.subarray(at, (at += SLICE)));
    },
  }, { highWaterMark: 0 });
}

/**
 * The text `pack` packed; throws TooLarge past LINK_LIMIT packed or UNPACKED_LIMIT unpacked (reading stops
 * there), and another error when the data is cut or changed.
 */
export async function unpack(packed) {
  if (packed.length > LINK_LIMIT) throw new TooLarge(packed.length);
  const reader = sliced(fromBase64url(packed)).pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > UNPACKED_LIMIT) {
      await reader.cancel().catch(() => {});
      throw new TooLarge(null);
    }
    chunks.push(value);
  }
  return new Blob(chunks).text();
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
