// The read key given in the page's address: in the fragment (`#key=…`, which the browser never sends to a server,
// so no request's address, proxy log or Referer carries it) or, from older links, in the query (`?key=…`).

// Splits the key out of an address's query (`search`, with or without "?") and fragment (`hash`, with or without
// "#"): {key, search, hash}, the key ("" when none; the fragment's wins) and the query and fragment left without it
// (each with its "?" or "#", or "" when nothing is left).
export function keyFromAddress(search, hash) {
  const query = new URLSearchParams(search.replace(/^\?/, ""));
  const fragment = new URLSearchParams(hash.replace(/^#/, ""));
  const key = fragment.get("key") || query.get("key") || "";
  query.delete("key");
  fragment.delete("key");
  const rest = (params, mark) => (params.toString() ? mark + params.toString() : "");
  return { key, search: rest(query, "?"), hash: rest(fragment, "#") };
}
