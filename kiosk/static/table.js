// The table screen: the game for everyone to read from two metres, whose turn, the history, a QR
// code per seat, and «À vérifier» over everything when the table is unsure of a reading.
"use strict";

K.actionsUrl = "/api/actions";
const $ = (id) => document.getElementById(id);

function drawTurn(snap) {
  const turn = $("turn");
  if (snap.over) {
    const names = snap.winners.map((s) => K.seatChip(snap, s, "big"));
    turn.replaceChildren(K.t(snap.winners.length > 1 ? "winners" : "winner") + " : ", ...names);
    return;
  }
  const seats = snap.turn.length ? snap.turn : snap.dice && snap.dice.seat !== null ? [snap.dice.seat] : [];
  turn.replaceChildren(K.t("turn") + " : ",
    ...(seats.length ? seats.map((s) => K.seatChip(snap, s, "big")) : [snap.dice ? "⚄ " + K.t("everyone") : K.t("nobody")]));
}

function drawQr(snap) {
  const box = $("qr");
  const key = snap.game ? snap.game.id + ":" + snap.game.players.join() : "";
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren();
  if (!snap.game || snap.viewer === "public") return;
  box.append(K.el("h3", {}, K.t("join")));
  snap.game.players.forEach((_, seat) => box.append(K.el("figure", { style: { borderColor: K.colour(snap, seat) } },
    K.el("img", { src: `/api/seats/${seat}/qr.svg?g=${snap.game.id}`, alt: "QR" }),
    K.el("figcaption", {}, K.seatChip(snap, seat)))));
}

function draw(snap) {
  // a camera picture changes only the arena image (4 a second): no full redraw for it
  if (snap.kind === "frame" && K.drawn && (!snap.game || snap.game.name !== "strike" || G.updateFrame(snap))) return;
  K.drawn = true;
  document.body.dataset.seq = snap.seq; // lets tools and tests see which state is drawn
  K.canAct = snap.viewer !== "public";
  $("lang").textContent = K.t("language");
  $("history-title").textContent = K.t("history");
  $("camera").textContent = snap.camera ? K.t("camera") + " : " + (K.strings[snap.camera] ? K.t(snap.camera) : snap.camera) : "";
  $("pin").textContent = snap.pin ? K.t("table_pin") + " " + snap.pin : "";
  K.showNotices(snap);
  if (!snap.game) {
    $("title").textContent = K.t("no_game");
    $("turn").replaceChildren();
    $("game").replaceChildren(K.el("p", { class: "big-text" }, K.t("start_game_hint", { pin: snap.pin || "…" })));
    $("history").replaceChildren();
    drawQr(snap);
    return;
  }
  $("title").textContent = K.title(snap);
  drawTurn(snap);
  $("game").replaceChildren(G.drawTable(snap));
  $("history").replaceChildren(G.history(snap));
  $("undo").hidden = !(snap.undoable && K.canAct);
  $("undo").textContent = "↶ " + K.t("undo");
  drawQr(snap);
  const layer = $("check-layer");
  layer.hidden = !snap.check;
  layer.replaceChildren(...(snap.check ? [G.check(snap)] : []));
}

K.redraw = () => K.snap && draw(K.snap);

(async function start() {
  await K.loadStrings();
  $("lang").onclick = () => { K.toggleLanguage(); K.redraw(); };
  $("undo").onclick = () => K.post("/api/undo", { seq: K.snap.seq });
  K.connect(draw);
})();
