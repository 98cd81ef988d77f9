// ---- The venue editor (docs/SERVER.md, "Editing a venue"). With an admin key, the page edits a copy of the venue
// (the draft, drawn in place of the venue while the live devices keep moving) and saves it whole with
// `PUT /v1/venues/{id}`. Every click goes from pixels to venue metres through the view exactly (kept to 1 mm).
// The admin key is asked for in the editor and kept in this browser's local storage, like the read key; it is
// sent in a header, never in an address.

import { openSide } from "./drawers.js";
import { closeForm } from "./editor-form.js";
import { nodeForm } from "./editor-items.js";
import { paintEditor } from "./editor-paint.js";
import { editorKey, editorPointerDown, editorPointerMove, editorPointerUp } from "./editor-pointer.js";
import { save } from "./editor-save.js";
import { adminKeyName, askKey, editor, setTool, showState, undo } from "./editor-state.js";
import { mm } from "./geometry.js";
import { drawPlan } from "./plan.js";
import { edit, editorHooks, setEdit, setVenue, venue } from "./state.js";
import { map, project, size, toVenue, view } from "./view.js";

// For tests and tools: the view's transform and conversions between venue metres and client (page) pixels.
window.indoorMap = {
  transform() { const box = map.getBoundingClientRect(); return { scale: view.scale, x: view.x, y: view.y, left: box.left, top: box.top }; },
  toScreen(x, y) { const box = map.getBoundingClientRect(); const [px, py] = project(x, y); return [px + box.left, py + box.top]; },
  toVenue(clientX, clientY) { const box = map.getBoundingClientRect(); return toVenue(clientX - box.left, clientY - box.top); },
  editing: () => !!edit,
  draft: () => edit ? venue : null,
};

// Starts editing the venue shown (asks for the admin key first when there is none).
function startEditing() {
  if (!venue || edit) return;
  if (!localStorage.getItem(adminKeyName)) { askKey(); return; }
  // {id, original, undo, tool, selected, drawing, drag, press, hover, error, dirty, pending}
  setEdit({ id: venue.id, original: venue, undo: [], tool: "select", selected: null, drawing: [], drag: null,
            press: null, hover: null, error: null, dirty: false, pending: null });
  setVenue(JSON.parse(JSON.stringify(venue)));
  editor.hidden = false;
  document.getElementById("edit-key").hidden = true;
  document.getElementById("edit-panel").hidden = false;
  document.getElementById("edit").setAttribute("aria-pressed", "true");
  document.body.classList.add("editing");
  openSide(true);
  setTool("select");
  showState("Editing " + (venue.name || venue.id) + ": nothing changed yet.");
  drawPlan(false);
}
// Leaves the editor; unsaved changes are dropped (after asking, unless `quietly`).
function stopEditing(quietly) {
  if (!edit) return;
  if (!quietly && edit.dirty && !confirm("Drop the changes that are not saved?")) return;
  setVenue(edit.original);
  setEdit(null);
  editor.hidden = true;
  document.getElementById("edit").setAttribute("aria-pressed", "false");
  document.body.classList.remove("editing");
  openSide(false);
  map.classList.remove("tool");
  drawPlan(false);
}
document.getElementById("edit").addEventListener("click", () => edit ? stopEditing(false) : startEditing());
document.getElementById("edit-key").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = document.getElementById("edit-key-input");
  if (!input.value.trim()) return;
  localStorage.setItem(adminKeyName, input.value.trim());
  input.value = "";
  document.getElementById("edit-key").hidden = true;
  if (edit) { document.getElementById("edit-panel").hidden = false; save(); } else startEditing();
});
document.getElementById("edit-key-cancel").addEventListener("click", () => {
  document.getElementById("edit-key").hidden = true;
  if (edit) {
    document.getElementById("edit-panel").hidden = false;
  } else {
    editor.hidden = true;
    openSide(false);
  }
});
for (const button of document.querySelectorAll("#edit-tools [data-tool]"))
  button.addEventListener("click", () => setTool(button.dataset.tool));
document.getElementById("edit-undo").addEventListener("click", () => undo());
document.getElementById("edit-save").addEventListener("click", () => save());
document.getElementById("edit-close").addEventListener("click", () => stopEditing(false));
document.getElementById("edit-add-node").addEventListener("click", () => {
  const [w, h] = size();
  const [x, y] = toVenue(w / 2, h / 2);
  nodeForm(null, mm(x), mm(y));
});

// The editor's part in the viewer's events (state.js).
Object.assign(editorHooks, {
  paint: paintEditor,
  pointerDown: editorPointerDown,
  pointerMove: editorPointerMove,
  pointerUp: editorPointerUp,
  key: editorKey,
  stop: stopEditing,
  floorChanged() { edit.drawing = []; edit.selected = null; closeForm(); },
});
