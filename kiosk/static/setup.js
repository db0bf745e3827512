// /setup: choose the game, the players and every option the engine offers; start or import a game.
// Guarded by the table PIN (shown on the table's screen); the table's own screen needs none.
"use strict";

const $ = (id) => document.getElementById(id);
let catalog = {};
let names = ["", ""];

function pinHeaders() {
  const pin = $("pin").value.trim() || sessionStorage.getItem("arbitre.pin") || "";
  if (pin) sessionStorage.setItem("arbitre.pin", pin);
  K.auth = pin ? { "X-Table-Pin": pin } : {};
  $("download").href = "/api/record" + (pin ? "?pin=" + encodeURIComponent(pin) : "");
}

function drawPlayers() {
  const spec = catalog[$("game").value];
  while (names.length < spec.min_players) names.push("");
  names = names.slice(0, spec.max_players);
  $("players").replaceChildren(...names.map((name, i) => K.el("input", {
    class: "player", value: name, placeholder: K.t("seat") + " " + (i + 1), required: "",
    oninput: (e) => (names[i] = e.target.value) })));
}

// Joust: past 42 squares the knights never meet and the game never ends (engine/joust.py,
// PLAYABLE_TRACK and JoustGame.setup_problem say the same); records may still hold such tracks.
const PLAYABLE = { joust: { track: 42 } };

function setupProblem(h) {
  const limits = PLAYABLE[h.game] || {};
  for (const [key, most] of Object.entries(limits)) {
    const value = h.options[key];
    if (value > most) {
      return K.lang === "en"
        ? `A track of ${value} squares: ${most} at most. Beyond, the knights never meet, every joust is void and the game never ends.`
        : `Piste de ${value} cases : au plus ${most}. Au-delà, les chevaliers ne se rencontrent jamais, toutes les joutes sont nulles et la partie ne finit pas.`;
    }
  }
  return null;
}

function drawOptions() {
  const spec = catalog[$("game").value];
  $("options").replaceChildren(...Object.entries(spec.options).map(([key, o]) => {
    let input;
    if (o.choices) {
      input = K.el("select", { "data-option": key },
        o.choices.map((c) => K.el("option", { value: JSON.stringify(c), selected: c === o.default ? "" : null }, String(c))));
    } else {
      const most = (PLAYABLE[$("game").value] || {})[key] ?? o.maximum;
      input = K.el("input", { "data-option": key, type: "number", value: o.default, min: o.minimum, max: most });
    }
    return K.el("label", { title: o.help || "" }, K.el("span", {}, key), " ", input);
  }));
}

function header() {
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    options[input.dataset.option] = input.tagName === "SELECT" ? JSON.parse(input.value) : Number(input.value);
  }
  return { game: $("game").value, players: names.map((n) => n.trim()), options };
}

function words() {
  $("lang").textContent = K.t("language");
  $("title").textContent = K.t("setup_title");
  $("pin-label").textContent = K.t("pin_prompt");
  $("game-label").textContent = K.t("game");
  $("players-label").textContent = K.t("players");
  $("options-label").textContent = K.t("options");
  $("start").textContent = K.t("start");
  $("import-label").textContent = K.t("import");
  $("download").textContent = K.t("download");
  for (const option of $("game").options) {
    const titles = catalog[option.value].titles;
    option.textContent = titles[K.lang] || titles.fr || option.value;
  }
}

async function go(url, init) {
  pinHeaders();
  const r = await fetch(url, Object.assign({ method: "POST" }, init, { headers: Object.assign({}, init.headers, K.auth) }));
  const data = await r.json();
  if (r.ok) location.href = "/";
  else K.toast(data.detail, true);
}

(async function start() {
  await K.loadStrings();
  catalog = await (await fetch("/api/catalog")).json();
  $("game").replaceChildren(...Object.keys(catalog).map((name) => K.el("option", { value: name }, name)));
  $("pin").value = sessionStorage.getItem("arbitre.pin") || "";
  $("pin").oninput = pinHeaders;
  pinHeaders();
  const snap = await (await fetch("/api/snapshot")).json();
  $("pin-row").hidden = snap.viewer !== "public";
  $("camera").textContent = snap.camera ? K.t("camera") + " : " + (K.strings[snap.camera] ? K.t(snap.camera) : snap.camera) : "";
  $("game").onchange = () => { drawPlayers(); drawOptions(); };
  $("add").onclick = () => { names.push(""); drawPlayers(); };
  $("remove").onclick = () => { names.pop(); drawPlayers(); };
  $("lang").onclick = () => { K.toggleLanguage(); words(); drawPlayers(); };
  $("form").onsubmit = (e) => {
    e.preventDefault();
    const problem = setupProblem(header());
    if (problem) return K.toast(problem, true);
    go("/api/games", { headers: { "Content-Type": "application/json" }, body: JSON.stringify(header()) });
  };
  $("file").onchange = async () => {
    const text = await $("file").files[0].text();
    go("/api/games/import", { headers: { "Content-Type": "application/x-ndjson" }, body: text });
  };
  words();
  drawPlayers();
  drawOptions();
})();
