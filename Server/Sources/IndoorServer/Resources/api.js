// The server's API as the page reads it: the read key (from the address once, then from local storage) and GET
// requests that carry it in a header.

export const params = new URLSearchParams(location.search);
// The read key comes once in the address (`?key=`), is kept in this browser's local storage and taken out of the
// address bar, so it is not left in the history, in bookmarks or in a copied link; requests carry it in a header.
export const key = params.get("key") || localStorage.getItem("indoorKey") || "";
if (params.get("key")) {
  localStorage.setItem("indoorKey", params.get("key"));
  params.delete("key");
  history.replaceState(null, "", location.pathname + (params.toString() ? "?" + params.toString() : "") + location.hash);
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
