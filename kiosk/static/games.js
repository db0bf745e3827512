// Per-game drawings: G.table[game](snap) for the table screen, G.seat[game](snap, seat) for a
// phone. A game without a drawing here (or whose engine is not installed) falls back to its raw
// state, so a new engine is usable before it is drawn.
"use strict";

const G = { table: {}, seat: {} };
const SYMBOL_GLYPH = { hash: "#", slash: "/", bars: "‖", triangle: "▲", circle: "●", cross: "✕" };
const PIP_SPOTS = {
  1: [[50, 50]],
  2: [[25, 25], [75, 75]],
  3: [[25, 25], [50, 50], [75, 75]],
  4: [[25, 25], [75, 25], [25, 75], [75, 75]],
  5: [[25, 25], [75, 25], [50, 50], [25, 75], [75, 75]],
  6: [[25, 25], [75, 25], [25, 50], [75, 50], [25, 75], [75, 75]],
};

// One die as SVG: pips for 1..6, a symbol for Détrak, the X of Strike; "?" when unread.
G.die = function (face, size, opts) {
  opts = opts || {};
  const s = K.svg("svg", { viewBox: "0 0 100 100", width: size, height: size, class: "die" });
  s.append(K.svg("rect", { x: 4, y: 4, width: 92, height: 92, rx: 16, fill: opts.fill || "#fafafa",
    stroke: opts.stroke || "#222", "stroke-width": opts.stroke ? 8 : 3 }));
  if (typeof face === "number" && PIP_SPOTS[face] && !opts.digits) {
    for (const [x, y] of PIP_SPOTS[face]) s.append(K.svg("circle", { cx: x, cy: y, r: 9, fill: "#111" }));
  } else {
    const label = face === null || face === undefined ? "?" : SYMBOL_GLYPH[face] || String(face);
    s.append(K.svg("text", { x: 50, y: 54, "text-anchor": "middle", "dominant-baseline": "middle",
      "font-size": 58, "font-weight": 700, fill: face === "X" ? "#c00" : "#111" }, label));
  }
  return s;
};

G.raw = function (snap) {
  return K.el("div", { class: "raw" }, K.el("p", {}, K.t("not_installed")),
    K.el("pre", {}, JSON.stringify(snap.state, null, 1)));
};

G.drawTable = function (snap) {
  const draw = G.table[snap.game.name];
  try {
    return draw ? draw(snap) : G.raw(snap);
  } catch (err) {
    console.error(err);
    return G.raw(snap);
  }
};

G.drawSeat = function (snap, seat) {
  const draw = G.seat[snap.game.name];
  try {
    return draw ? draw(snap, seat) : G.raw(snap);
  } catch (err) {
    console.error(err);
    return G.raw(snap);
  }
};

G.act = (line) => K.post(K.actionsUrl, Object.assign({}, line, { seq: K.snap.seq }));

// ---- history -------------------------------------------------------------------------------

G.describe = function (snap, line) {
  const who = line.seat !== undefined ? K.name(snap, line.seat) + " : " : "";
  switch (line.act) {
    case "roll": return "⚄ " + line.dice.map((d) => SYMBOL_GLYPH[d] || d).join(" ");
    case "start": return "⚄ " + line.arena.join(" ");
    case "throw": return who + "⚄ " + line.arena.join(" ");
    case "place": return who + "✎ " + (line.cell ? [line.cell] : line.cells || []).map(G.cellName).join("+");
    case "choose": return who + (SYMBOL_GLYPH[line.symbol] || line.symbol);
    case "move": return who + line.from + " → " + line.to;
    case "stack": return who + "▮ ×6";
    case "setup": return who + "⚑";
    default: return who + line.act;
  }
};

// A sheet's cell as players name it: row letter, column number ("B4").
G.cellName = (cell) => (Array.isArray(cell) ? "ABCDE"[cell[0]] + (cell[1] + 1) : String(cell));

G.history = function (snap) {
  const list = K.el("ol", { class: "history", reversed: true, start: snap.history_total });
  for (const entry of snap.history.slice().reverse().slice(0, 12)) {
    const line = entry.line || {};
    list.append(K.el("li", { style: line.seat !== undefined ? { borderColor: K.colour(snap, line.seat) } : {} },
      G.describe(snap, line), K.el("small", {}, " · " + K.t("source_" + entry.source))));
  }
  return list;
};

// ---- «À vérifier» ---------------------------------------------------------------------------

G.check = function (snap) {
  const check = snap.check;
  const box = K.el("div", { class: "check" }, K.el("h2", {}, "⚠ " + K.t("check_title")));
  box.append(K.el("p", {}, check.reasons.map((r) => (K.strings[r] ? K.t(r) : r)).join(" · ")));
  const picker = K.el("div", { class: "picker" });
  // the die being fixed survives redraws (other events may arrive while a player chooses)
  const choose = (index) => {
    G.checkPick = { check: check.id, index };
    picker.replaceChildren(...check.faces.map((face) => K.el("button",
      { class: "face", onclick: () => { G.checkPick = null; K.post("/api/check/die", { check: check.id, index, face }); } },
      G.die(face, 56))));
  };
  if (G.checkPick && G.checkPick.check === check.id) choose(G.checkPick.index);
  if (check.frame) {
    const wrap = K.el("div", { class: "frame-wrap" });
    const img = K.el("img", { src: "/api/check/frame.jpg?c=" + check.id, alt: "" });
    wrap.append(img);
    img.onload = () => wrap.append(G.overlay(check.dice, img.naturalWidth, img.naturalHeight, choose));
    box.append(wrap);
  }
  const dice = K.el("div", { class: "check-dice" });
  check.dice.forEach((d, i) => {
    const doubtful = d.doubt;  // the server's: the dice the table asks about (decision.asked)
    dice.append(K.el("button", { class: "face" + (doubtful ? " doubt" : "") + (d.in_arena === false ? " outside" : ""),
      onclick: () => choose(i) }, G.die(d.face, 64)));
  });
  box.append(dice, picker);
  box.append(K.el("p", { class: "proposed" }, K.t("proposed") + " : " + G.describe(snap, check.line)));
  box.append(K.el("div", { class: "buttons" },
    K.el("button", { class: "big go", onclick: () => K.post("/api/check/confirm", { check: check.id }) }, K.t("send")),
    K.el("button", { class: "big", onclick: () => K.post("/api/check/reroll", { check: check.id }) }, K.t("reroll"))));
  return box;
};

// The reading drawn over a camera picture: a square per die, red when cocked or unsure.
G.overlay = function (dice, width, height, onTap) {
  const s = K.svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "overlay", preserveAspectRatio: "none" });
  dice.forEach((d, i) => {
    const size = d.size || 40;
    const doubtful = d.doubt;
    const colour = doubtful ? "#ff3030" : d.in_arena === false ? "#999" : "#30ff60";
    const g = K.svg("g", { class: "reading", onclick: onTap ? () => onTap(i) : null });
    g.append(K.svg("rect", { x: d.x - size * 0.7, y: d.y - size * 0.7, width: size * 1.4, height: size * 1.4,
      fill: "none", stroke: colour, "stroke-width": Math.max(3, size / 10), rx: size / 6 }));
    g.append(K.svg("text", { x: d.x, y: d.y - size * 0.85, "text-anchor": "middle", fill: colour,
      "font-size": Math.max(18, size * 0.8), "font-weight": 700, stroke: "#000", "stroke-width": 1 },
      d.face === null ? "?" : SYMBOL_GLYPH[d.face] || d.face));
    s.append(g);
  });
  return s;
};

// ---- Strike ---------------------------------------------------------------------------------

G.table.strike = function (snap) {
  const st = snap.state;
  const root = K.el("div", { class: "strike" });
  const arena = K.el("div", { class: "arena" });
  if (snap.frame) {
    // the overlay sits on a box exactly the image's size, so the reading lands on the dice
    const wrap = K.el("div", { class: "frame-wrap arena-frame" });
    const img = K.el("img", { alt: K.t("arena") });
    img.onload = () => {
      const old = wrap.querySelector(".overlay");
      const fresh = G.overlay(img.frameDice || [], img.naturalWidth, img.naturalHeight);
      if (old) old.replaceWith(fresh);
      else wrap.append(fresh);
    };
    wrap.append(img);
    arena.append(wrap);
    G.showFrame(img, snap.frame);
  } else {
    const oval = K.el("div", { class: "oval" }, st.arena.map((f) => G.die(f, "11vh")));
    arena.append(oval);
  }
  if (st.phase === "grand_throw") arena.append(K.el("div", { class: "banner" }, K.t("grand_throw")));
  root.append(arena);
  const side = K.el("div", { class: "reserves" });
  st.reserves.forEach((n, seat) => {
    const out = st.eliminated.includes(seat);
    side.append(K.el("div", { class: "reserve" + (out ? " out" : "") + (st.turn === seat ? " now" : ""),
      style: { borderColor: K.colour(snap, seat) } },
      K.seatChip(snap, seat), K.el("b", {}, out ? K.t("eliminated") : "⚄ × " + n),
      st.points ? K.el("small", {}, " " + st.points[seat] + " pts") : null));
  });
  side.append(K.el("div", { class: "reserve" }, K.t("out_of_game") + " : " + st.out_of_game));
  root.append(side);
  return root;
};

// A new camera picture replaces the image in place: no redraw of the page for it.
G.showFrame = function (img, frame) {
  img.frameDice = frame.dice;
  img.src = "/api/frame.jpg?n=" + frame.n;
};

G.updateFrame = function (snap) {
  const img = document.querySelector(".arena img");
  if (!img || !snap.frame) return false;
  G.showFrame(img, snap.frame);
  return true;
};

G.seat.strike = function (snap, seat) {
  const st = snap.state;
  const mine = st.turn === seat;
  const box = K.el("div", { class: "seat-strike" });
  box.append(K.el("p", { class: "big-text" }, "⚄ × " + st.reserves[seat]));
  box.append(K.el("div", { class: "oval small" }, st.arena.map((f) => G.die(f, 48))));
  if (mine && st.phase === "choose") {
    box.append(K.el("div", { class: "buttons" },
      K.el("button", { class: "big stop", onclick: () => G.act({ act: "stop", seat }) }, K.t("stop")),
      K.el("button", { class: "big go", onclick: () => K.post(`/api/seats/${seat}/go-on`) }, K.t("go_on"))));
  }
  return box;
};

// ---- Knister and Détrak: sheets ----------------------------------------------------------------

G.sheet = function (snap, seat, onCell, picked) {
  const st = snap.state;
  const grid = K.el("div", { class: "sheet", style: { borderColor: K.colour(snap, seat) } });
  st.sheets[seat].forEach((row, r) => row.forEach((value, c) => {
    const isPicked = picked && picked.some(([pr, pc]) => pr === r && pc === c);
    const text = value === null ? "" : SYMBOL_GLYPH[value] || value;
    grid.append(K.el(onCell ? "button" : "div", {
      class: "cell" + (value === null ? " empty" : "") + (isPicked ? " picked" : ""),
      "data-cell": r + "," + c, onclick: onCell ? () => onCell(r, c) : null }, text));
  }));
  return grid;
};

G.sheets = function (snap) {
  const st = snap.state;
  const wrap = K.el("div", { class: "sheets n" + st.sheets.length });
  st.sheets.forEach((_, seat) => {
    const waiting = st.waiting.includes(seat);
    wrap.append(K.el("div", { class: "sheet-box" + (waiting ? " waiting" : "") },
      K.el("div", { class: "sheet-head" }, K.seatChip(snap, seat), K.el("b", { class: "score" }, st.scores[seat])),
      G.sheet(snap, seat)));
  });
  return wrap;
};

G.rollBox = function (snap) {
  const st = snap.state;
  const box = K.el("div", { class: "roll" });
  if (st.dice) {
    box.append(K.el("div", { class: "roll-dice" }, st.dice.map((d) => G.die(d, "16vh"))));
    if (st.sum !== undefined && st.sum !== null) box.append(K.el("div", { class: "sum" }, "= " + st.sum));
  } else if (!snap.over) {
    box.append(K.el("div", { class: "sum hint" }, "⚄ " + K.t("roll_dice")));
  }
  if (st.waiting && st.waiting.length && st.phase !== "roll") {
    box.append(K.el("div", { class: "roll-waiting" }, K.el("span", {}, K.t("still_to_write") + " :"),
      st.waiting.map((s) => K.seatChip(snap, s))));
  }
  return box;
};

G.table.knister = (snap) => K.el("div", { class: "sheet-game" }, G.rollBox(snap), G.sheets(snap));
G.table.detrak = G.table.knister;

G.seat.knister = function (snap, seat) {
  const st = snap.state;
  const writing = st.phase === "place" && st.waiting.includes(seat);
  const box = K.el("div", { class: "seat-sheet" });
  box.append(K.el("p", { class: "big-text" }, writing ? K.t("write_here", { sum: st.sum })
    : st.phase === "place" ? K.t("wait_others") : K.t("wait_roll")));
  box.append(G.sheet(snap, seat, writing ? (r, c) => G.act({ act: "place", seat, cell: [r, c] }) : null));
  box.append(K.el("p", {}, K.t("score") + " : " + st.scores[seat]));
  return box;
};

G.seat.detrak = function (snap, seat) {
  const st = snap.state;
  const box = K.el("div", { class: "seat-sheet" });
  if (st.phase === "choose" && st.waiting.includes(seat)) {
    box.append(K.el("p", { class: "big-text" }, K.t("choose_symbol")));
    box.append(K.el("div", { class: "buttons" }, Object.keys(SYMBOL_GLYPH)
      .filter((s) => !st.symbols.includes(s))
      .map((s) => K.el("button", { class: "face", onclick: () => G.act({ act: "choose", seat, symbol: s }) }, G.die(s, 56)))));
  }
  const placing = st.phase === "place" && st.waiting.includes(seat);
  if (placing) {
    box.append(K.el("p", { class: "big-text" }, K.t("place_pair",
      { a: SYMBOL_GLYPH[st.dice[0]], b: SYMBOL_GLYPH[st.dice[1]] })));
  } else if (st.phase !== "choose") {
    box.append(K.el("p", { class: "big-text" }, st.phase === "place" ? K.t("wait_others") : K.t("wait_roll")));
  }
  G.picked = placing ? G.picked || [] : [];
  const onCell = (r, c) => {
    G.picked.push([r, c]);
    if (G.picked.length === 2) {
      const cells = G.picked;
      G.picked = [];
      G.act({ act: "place", seat, cells });
    } else {
      K.redraw();
    }
  };
  box.append(G.sheet(snap, seat, placing ? onCell : null, G.picked));
  box.append(K.el("p", {}, K.t("score") + " : " + st.scores[seat]));
  return box;
};

// ---- Joust --------------------------------------------------------------------------------

G.table.joust = function (snap) {
  const st = snap.state;
  const root = K.el("div", { class: "joust" });
  const track = st.track || 24;
  const lane = K.el("div", { class: "track" });
  for (let i = 0; i <= track; i++) lane.append(K.el("div", { class: "square" }));
  const place = (seat, at) => K.el("div", { class: "knight", style: {
    left: (100 * at) / track + "%", background: K.colour(snap, seat) } }, "♞");
  lane.append(place(0, Math.min(track, st.positions[0])), place(1, Math.max(0, track - st.positions[1])));
  root.append(K.el("h3", {}, K.t("track")), lane);
  const cards = K.el("div", { class: "played" });
  [0, 1].forEach((seat) => cards.append(K.el("div", { class: "played-row" }, K.seatChip(snap, seat),
    st.played[seat].map((c) => K.el("span", { class: "card" }, c)),
    K.el("b", { class: "score" }, st.scores[seat]))));
  root.append(K.el("h3", {}, K.t("played_cards")), cards);
  root.append(K.el("p", {}, K.t("jousts") + " : " + st.jousts));
  if (st.phase === "reveal" && K.canAct) {
    root.append(K.el("button", { class: "big go", onclick: () => G.act({ act: "reveal" }) }, K.t("reveal")));
  }
  return root;
};

G.seat.joust = function (snap, seat) {
  const st = snap.state;
  const box = K.el("div", { class: "seat-joust" });
  if (st.phase === "stack" && !st.stacked[seat]) {
    G.order = G.order || [];
    box.append(K.el("p", { class: "big-text" }, K.t("stack_hint")));
    box.append(K.el("div", { class: "cards" }, [1, 2, 3, 4, 5, 6].map((c) => K.el("button", {
      class: "card big-card" + (G.order.includes(c) ? " used" : ""),
      onclick: () => { if (!G.order.includes(c)) { G.order.push(c); K.redraw(); } } }, c))));
    box.append(K.el("p", { class: "order" }, K.t("your_stack") + " : " + G.order.join(" · ")));
    box.append(K.el("div", { class: "buttons" },
      K.el("button", { class: "big", onclick: () => { G.order = []; K.redraw(); } }, "↺"),
      K.el("button", { class: "big go", disabled: G.order.length !== 6 ? "" : null,
        onclick: () => { const cards = G.order; G.order = []; G.act({ act: "stack", seat, cards }); } }, K.t("send"))));
  } else {
    box.append(K.el("p", { class: "big-text" }, st.phase === "stack" ? K.t("stack_done") : K.t("your_stack")));
    if (st.stack) box.append(K.el("div", { class: "cards" }, st.stack.map((c) => K.el("span", { class: "card big-card" }, c))));
    if (st.phase === "reveal") {
      box.append(K.el("button", { class: "big go", onclick: () => G.act({ act: "reveal" }) }, K.t("reveal")));
    }
  }
  box.append(G.table.joust(Object.assign({}, snap)));
  return box;
};

// ---- Stratego -----------------------------------------------------------------------------

const FILES = "abcdefghij";
const LAKES = ["c5", "d5", "g5", "h5", "c6", "d6", "g6", "h6"];
const ARMY = { F: 1, B: 6, S: 1, 2: 8, 3: 5, 4: 4, 5: 4, 6: 4, 7: 3, 8: 2, 9: 1, 10: 1 };

G.board = function (snap, board, flip, onSquare, marked) {
  const grid = K.el("div", { class: "board" });
  for (let row = 0; row < 10; row++) {
    for (let col = 0; col < 10; col++) {
      const rank = flip ? row + 1 : 10 - row;
      const file = flip ? FILES[9 - col] : FILES[col];
      const sq = file + rank;
      const piece = board[sq];
      const cls = "sq" + (LAKES.includes(sq) ? " lake" : "") + (marked && marked.includes(sq) ? " marked" : "");
      const content = piece ? K.el("span", { class: "piece", style: { background: K.colour(snap, piece[0]) } },
        piece[1] === null ? "" : piece[1]) : "";
      grid.append(K.el(onSquare ? "button" : "div", { class: cls, "data-sq": sq,
        onclick: onSquare ? () => onSquare(sq) : null }, content));
    }
  }
  return grid;
};

G.table.stratego = function (snap) {
  const st = snap.state;
  const root = K.el("div", { class: "stratego" });
  const marked = st.last_move ? [st.last_move.from, st.last_move.to] : [];
  root.append(G.board(snap, st.board, false, null, marked));
  const side = K.el("div", { class: "side-info" });
  if (st.last_fight) {
    const f = st.last_fight;
    side.append(K.el("h3", {}, K.t("last_fight")), K.el("p", { class: "fight" },
      K.el("span", { class: "piece", style: { background: K.colour(snap, f.attacker[0]) } }, f.attacker[1]), " ⚔ ",
      K.el("span", { class: "piece", style: { background: K.colour(snap, f.defender[0]) } }, f.defender[1]),
      " → " + f.result));
  }
  [0, 1].forEach((seat) => side.append(K.el("p", {}, K.seatChip(snap, seat), " ✝ " + (st.captured[seat] || []).join(" "))));
  root.append(side);
  return root;
};

G.randomSetup = function (seat) {
  const pieces = Object.entries(ARMY).flatMap(([p, n]) => Array(n).fill(p));
  for (let i = pieces.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [pieces[i], pieces[j]] = [pieces[j], pieces[i]];
  }
  const ranks = seat === 0 ? [1, 2, 3, 4] : [7, 8, 9, 10];
  const squares = {};
  ranks.forEach((r) => [...FILES].forEach((f) => (squares[f + r] = pieces.pop())));
  return squares;
};

G.seat.stratego = function (snap, seat) {
  const st = snap.state;
  const box = K.el("div", { class: "seat-stratego" });
  if (st.phase === "setup" && !st.ready[seat]) {
    G.setup = G.setup || G.randomSetup(seat);
    const board = {};
    for (const [sq, p] of Object.entries(G.setup)) board[sq] = [seat, p];
    box.append(K.el("p", { class: "big-text" }, K.t("setup_army")), K.el("p", {}, K.t("swap_hint")));
    box.append(G.board(snap, board, seat === 1, (sq) => {
      if (!(sq in G.setup)) return;
      if (G.first && G.first !== sq) {
        [G.setup[G.first], G.setup[sq]] = [G.setup[sq], G.setup[G.first]];
        G.first = null;
      } else {
        G.first = sq;
      }
      K.redraw();
    }, G.first ? [G.first] : []));
    box.append(K.el("div", { class: "buttons" },
      K.el("button", { class: "big", onclick: () => { G.setup = G.randomSetup(seat); K.redraw(); } }, K.t("random_fill")),
      K.el("button", { class: "big go", onclick: () => G.act({ act: "setup", seat, squares: G.setup }) }, K.t("send"))));
    return box;
  }
  const mine = st.turn === seat && st.phase === "play";
  box.append(K.el("p", { class: "big-text" }, mine ? K.t("your_turn") + " " + K.t("move_hint") : K.t("not_your_turn")));
  box.append(G.board(snap, st.board, seat === 1, mine ? (sq) => {
    const piece = st.board[sq];
    if (piece && piece[0] === seat) {
      G.from = sq;
      K.redraw();
    } else if (G.from) {
      const from = G.from;
      G.from = null;
      G.act({ act: "move", seat, from, to: sq });
    }
  } : null, G.from ? [G.from] : []));
  return box;
};
