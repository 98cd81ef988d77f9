// The server's API as the page reads it: the read key (from the address once, then from local storage) and GET
// requests that carry it in a header.
import { keyFromAddress } from "./address-key.js";

export const params = new URLSearchParams(location.search);
// The read key comes once in the address's fragment (`#key=`, never sent to the server; `?key=` of older links is
// taken too), is kept in this browser's local storage and taken out of the address bar, so it is not left in the
// history, in bookmarks or in a copied link; requests carry it in a header, never in their address.
const given = keyFromAddress(location.search, location.hash);
export const key = given.key || localStorage.getItem("indoorKey") || "";
if (given.key) {
  localStorage.setItem("indoorKey", given.key);
  params.delete("key");
  history.replaceState(null, "", location.pathname + given.search + given.hash);
}

// GET `path` with the read key: its JSON answer, or an Error saying the status and the server's message.
export async function api(path) {
  const response = await fetch(path, { headers: { "Authorization": "Bearer " + key } });
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(response.status + " " + (body.message || response.statusText));
  }
  return response.json();
}
