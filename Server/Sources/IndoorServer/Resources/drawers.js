// ---- The side panel (the venue editor and the activity list): beside the plan on a wide screen; at phone width
// (map.css, up to 760 px) a drawer, over the plan from the right or, while editing, under it, so that the plan takes
// the screen. The header's Activity (Editor) button opens and closes it, its × button and Escape close it.

const phone = matchMedia("(max-width: 760px)");
const side = document.getElementById("side");
const opener = document.getElementById("side-open");
const closer = document.getElementById("side-close");

// Whether the drawer is open (beside the plan the panel is always shown, whatever this says).
export const sideOpen = () => document.body.classList.contains("side-open");

// Opens or closes the drawer; with `focus`, moves the keyboard focus into it (its × button) or back to the header's
// button.
export function openSide(open, focus = false) {
  document.body.classList.toggle("side-open", open);
  opener.setAttribute("aria-expanded", String(open));
  if (focus && phone.matches) (open ? closer : opener).focus({ preventScroll: true });
}

opener.addEventListener("click", () => openSide(!sideOpen(), true));
closer.addEventListener("click", () => openSide(false, true));
// Escape closes the drawer from inside it (a form in it takes Escape first, to cancel itself), and from anywhere while
// the editor is off (while editing, Escape on the plan cancels what is being drawn).
side.addEventListener("keydown", (e) => {
  if (e.key !== "Escape" || !phone.matches || !sideOpen()) return;
  e.preventDefault();
  e.stopPropagation();
  openSide(false, true);
});
document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape" || !phone.matches || !sideOpen() || document.body.classList.contains("editing")) return;
  openSide(false, true);
});
