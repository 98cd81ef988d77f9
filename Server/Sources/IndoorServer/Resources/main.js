// The live map's entry, loaded by map.html as a module: the editor joins the viewer's events, then the viewer lists
// the venues and opens one. The modules, each imported where it is used:
//   api, state, geometry, layout, format: the read key and GET; what is shown; pure geometry, layout and words
//   view, zoom, labels, plan, floor-image: the map's view, zoom and pan, labels, the plan, the floor's image
//   activity, stream, viewer: the activity list, the live stream, opening a venue and the status line
//   drawers: the side panel as a drawer at phone width
//   survey, survey-plan: survey mode (recording a site survey on the plan) and what it works out
//   history, report, history-plan: looking back (playback, heatmap, zone report) and what they work out
//   editor and editor-*: the venue editor (state, forms, items, anchor, image, pointer, save, paint)

import "./drawers.js";
import "./editor.js";
import "./survey.js";
import "./history.js";
import { start } from "./viewer.js";

start();
