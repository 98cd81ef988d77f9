// The live stream (Server-Sent Events), read with fetch so that the key travels in a header and never in a URL.
// After a break it reconnects in 2 s and resumes after the last event it had (Last-Event-ID).

let stream = null, lastEventID = null;
// Forgets the last event's id: the next connection starts from now (another venue).
export function forgetLastEvent() { lastEventID = null; }
// Reads venue `id`'s stream with the read `key` until another call replaces it: `on.live()` once connected,
// `on.broken()` at each break, `on.event(name, payload)` for each event that has data (its JSON parsed).
export function connect(id, key, on) {
  if (stream) stream.abort();
  const controller = new AbortController();
  stream = controller;
  (async () => {
    while (!controller.signal.aborted) {
      try {
        const headers = { "Authorization": "Bearer " + key, "Accept": "text/event-stream" };
        if (lastEventID) headers["Last-Event-ID"] = lastEventID;
        const response = await fetch("/v1/stream?venue=" + encodeURIComponent(id), { headers, signal: controller.signal });
        if (!response.ok) throw new Error(response.status + " " + response.statusText);
        on.live();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value.replace(/\r\n?/g, "\n");
          for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
            const event = parseEvent(buffer.slice(0, end));
            if (event.id !== undefined) lastEventID = event.id;
            if (event.data !== null) on.event(event.name, JSON.parse(event.data));
            buffer = buffer.slice(end + 2);
          }
        }
      } catch (error) {
        if (controller.signal.aborted) return;
      }
      on.broken();
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  })();
}

// One event of the stream, the text between two blank lines: {name, data, id} from its `event`, `data` (lines
// joined; null when none) and `id` lines (the last; undefined when none); comment lines (heartbeats) are skipped.
export function parseEvent(block) {
  let name = "message", id;
  const data = [];
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
    else if (field === "id") id = value;
  }
  return { name, data: data.length ? data.join("\n") : null, id };
}
