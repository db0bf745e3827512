// A seat's phone: only what that seat may see, and its own controls. The token comes from the QR
// code (?t=) and is kept on the phone, so a reload still works.
"use strict";

const $ = (id) => document.getElementById(id);
const SEAT = Number(location.pathname.split("/").pop());
const params = new URLSearchParams(location.search);
const TOKEN = params.get("t") || localStorage.getItem("arbitre.seat." + SEAT) || "";
localStorage.setItem("arbitre.seat." + SEAT, TOKEN);
K.auth = { "X-Seat-Token": TOKEN };
K.query = "?token=" + encodeURIComponent(TOKEN);
K.actionsUrl = `/api/seats/${SEAT}/actions`;
K.canAct = false; // the seat's own buttons are drawn by G.seat

function draw(snap) {
  if (snap.kind === "frame" && K.drawn) return; // phones do not show the camera picture
  K.drawn = true;
  document.body.dataset.seq = snap.seq;
  $("lang").textContent = K.t("language");
  K.showNotices(snap);
  if (!snap.game) {
    $("who").textContent = K.t("no_game");
    $("seat").replaceChildren();
    return;
  }
  const colour = K.colour(snap, SEAT);
  $("bar").style.borderBottomColor = colour;
  $("who").replaceChildren(K.seatChip(snap, SEAT, "big"), " · " + K.title(snap));
  const mine = snap.turn.includes(SEAT);
  $("status").textContent = snap.over ? K.t("game_over") : mine ? K.t("your_turn") : "";
  $("status").style.background = mine && !snap.over ? colour : "";
  $("seat").replaceChildren(G.drawSeat(snap, SEAT));
  const last = snap.history.length ? snap.history[snap.history.length - 1].line || {} : {};
  if (snap.undoable && last.seat === SEAT) {
    $("seat").append(K.el("button", { class: "big undo", onclick: () => K.post("/api/undo", { seq: snap.seq }) },
      "↶ " + K.t("undo")));
  }
  const layer = $("check-layer");
  layer.hidden = !snap.check;
  layer.replaceChildren(...(snap.check ? [G.check(snap)] : []));
}

K.redraw = () => K.snap && draw(K.snap);
K.onGone = () => $("seat").replaceChildren(K.el("p", { class: "big-text bad" }, K.t("new_game_scan")));

(async function start() {
  await K.loadStrings();
  $("lang").onclick = () => { K.toggleLanguage(); K.redraw(); };
  const probe = await fetch(`/api/seats/${SEAT}/state`, { headers: K.auth });
  if (probe.status === 403) {
    $("seat").replaceChildren(K.el("p", { class: "big-text bad" }, (await probe.json()).detail));
    return;
  }
  K.connect(draw);
})();
