// ---- The editor's form: one at a time, in the panel; Enter confirms, Escape cancels, Tab moves between fields.

import { openSide } from "./drawers.js";
import { edit } from "./state.js";
import { map } from "./view.js";
import { render } from "./zoom.js";

// Shows a form titled `title` with `fields` ({name, label, value, numeric, placeholder}); `onOK(values)` returns a
// problem ({field, message}) to show, or nothing to close the form; `onDelete` adds a Delete button.
export function showForm(title, fields, onOK, onDelete) {
  const form = document.getElementById("edit-form");
  openSide(true);   // at phone width the form is in a drawer
  form.innerHTML = "";
  form.hidden = false;
  const heading = document.createElement("h3");
  heading.textContent = title;
  form.appendChild(heading);
  for (const f of fields) {
    const label = document.createElement("label");
    const span = document.createElement("span");
    span.textContent = f.label;
    const input = document.createElement("input");
    input.name = f.name;
    input.value = f.value === undefined || f.value === null ? "" : String(f.value);
    input.autocomplete = "off";
    if (f.placeholder) input.placeholder = f.placeholder;
    if (f.numeric) input.inputMode = "decimal";
    const note = document.createElement("small");
    note.className = "field-error";
    note.dataset.for = f.name;
    label.append(span, input, note);
    form.appendChild(label);
  }
  const buttons = document.createElement("div");
  buttons.className = "buttons";
  const ok = document.createElement("button");
  ok.type = "submit"; ok.textContent = "OK";
  buttons.appendChild(ok);
  if (onDelete) {
    const del = document.createElement("button");
    del.type = "button"; del.textContent = "Delete"; del.className = "delete";
    del.addEventListener("click", () => { closeForm(); onDelete(); map.focus(); });
    buttons.appendChild(del);
  }
  const cancel = document.createElement("button");
  cancel.type = "button"; cancel.textContent = "Cancel";
  cancel.addEventListener("click", () => cancelForm());
  buttons.appendChild(cancel);
  form.appendChild(buttons);
  form.onsubmit = (e) => {
    e.preventDefault();
    for (const note of form.querySelectorAll(".field-error")) note.textContent = "";
    const values = Object.fromEntries(new FormData(form).entries());
    const problem = onOK(values);
    if (problem) { fieldNote(problem.field, problem.message); return; }
    closeForm();
    map.focus({ preventScroll: true });
  };
  form.onkeydown = (e) => { if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); cancelForm(); } };
  const first = form.querySelector("input");
  if (first) first.focus();
}
export function fieldNote(name, message) {
  const form = document.getElementById("edit-form");
  const note = form.querySelector('.field-error[data-for="' + CSS.escape(name) + '"]');
  if (note) note.textContent = message;
  const input = form.querySelector('input[name="' + CSS.escape(name) + '"]');
  if (input) { input.setAttribute("aria-invalid", "true"); input.focus(); }
}
export function closeForm() {
  const form = document.getElementById("edit-form");
  form.hidden = true;
  form.innerHTML = "";
  if (edit) { edit.pending = null; render(); }
}
export function cancelForm() {
  closeForm();
  if (edit) { edit.drawing = []; render(); }
  map.focus({ preventScroll: true });
}
// A number in metres from a form field, or a problem naming the field.
export function metres(values, name, optional) {
  const text = String(values[name] === undefined ? "" : values[name]).trim().replace(",", ".");
  if (text === "" && optional) return { value: undefined };
  const value = Number(text);
  if (text === "" || !Number.isFinite(value)) return { problem: { field: name, message: "a number (metres) is needed here" } };
  return { value };
}

// The numbers of form fields `names` as {v: {name: value}}, or the first field that is not one as {problem}.
export function numbers(values, names) {
  const v = {};
  for (const name of names) {
    const m = metres(values, name);
    if (m.problem) return { problem: { field: name, message: "a number is needed here" } };
    v[name] = m.value;
  }
  return { v };
}
