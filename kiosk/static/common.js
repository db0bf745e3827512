// Shared by the three pages: words (fr/en), the event stream, API calls, small DOM helpers.
// Plain JavaScript loaded as is by the browser: no build step, no CDN (the table runs offline).
"use strict";

const K = {
  strings: {},
  lang: localStorage.getItem("arbitre.lang") || "fr",
  auth: {}, // headers for API calls: X-Seat-Token or X-Table-Pin
  query: "", // the same credentials as a query string (EventSource cannot send headers)
};

K.t = function (key, params) {
  const entry = K.strings[key];
  let text = entry ? entry[K.lang] || entry.fr : key;
  for (const [name, value] of Object.entries(params || {})) {
    text = text.replaceAll("{" + name + "}", value);
  }
  return text;
};

K.loadStrings = async function () {
  const r = await fetch("/api/i18n");
  K.strings = (await r.json()).strings;
  document.documentElement.lang = K.lang;
};

K.toggleLanguage = function () {
  K.lang = K.lang === "fr" ? "en" : "fr";
  localStorage.setItem("arbitre.lang", K.lang);
  document.documentElement.lang = K.lang;
};

K.el = function (tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (name === "class") node.className = value;
    else if (name === "style" && typeof value === "object") Object.assign(node.style, value);
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
};

K.svg = function (tag, attrs, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (value !== null && value !== undefined) node.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
};

// POST JSON; resolves to {ok, status, data}; the reason of a 409/422 is in data.detail.
K.post = async function (url, body) {
  const r = await fetch(url, {
    method: "POST",
    headers: Object.assign({ "Content-Type": "application/json" }, K.auth),
    body: JSON.stringify(body === undefined ? {} : body),
  });
  let data = null;
  try {
    data = await r.json();
  } catch (e) {
    data = { detail: r.statusText };
  }
  if (!r.ok) K.toast(data.detail || r.statusText, true);
  return { ok: r.ok, status: r.status, data };
};

// The event stream: a snapshot on connect, then one per change. EventSource reconnects by itself
// and sends Last-Event-ID, so nothing is missed across a Wi-Fi hiccup.
K.connect = function (onSnapshot) {
  const source = new EventSource("/api/events" + K.query);
  const dot = document.getElementById("link");
  source.addEventListener("snapshot", (e) => {
    K.snap = JSON.parse(e.data);
    if (dot) dot.className = "link up";
    onSnapshot(K.snap);
  });
  source.addEventListener("gone", () => {
    source.close();
    if (dot) dot.className = "link down";
    K.toast(K.t("new_game_scan"), true);
    if (K.onGone) K.onGone();
  });
  source.onerror = () => {
    if (dot) dot.className = "link down";
  };
  return source;
};

K.toast = function (text, bad) {
  let box = document.getElementById("toast");
  if (!box) {
    box = K.el("div", { id: "toast" });
    document.body.append(box);
  }
  box.textContent = text;
  box.className = bad ? "show bad" : "show";
  clearTimeout(K.toastTimer);
  K.toastTimer = setTimeout(() => (box.className = ""), 4000);
};

K.colour = (snap, seat) => (snap.game && snap.game.colours[seat]) || "#888";
K.name = (snap, seat) => (snap.game ? snap.game.players[seat] : "?");
K.title = (snap) => {
  const titles = snap.game.titles || {};
  return titles[K.lang] || titles.fr || snap.game.name;
};

K.seatChip = function (snap, seat, extra) {
  return K.el(
    "span",
    { class: "chip " + (extra || ""), style: { background: K.colour(snap, seat) } },
    K.name(snap, seat),
  );
};

// A notice is an i18n key, "go_on:N", or plain text from the table.
K.noticeText = function (snap, text) {
  if (text.startsWith("go_on:")) {
    return K.t("go_on_notice", { name: K.name(snap, Number(text.slice(6))) });
  }
  return K.strings[text] ? K.t(text) : text;
};

K.showNotices = function (snap) {
  const last = snap.notices[snap.notices.length - 1];
  if (last && last.at > (K.lastNoticeAt || 0)) {
    if (K.lastNoticeAt !== undefined) K.toast(K.noticeText(snap, last.text));
    K.lastNoticeAt = last.at;
  } else if (K.lastNoticeAt === undefined) {
    K.lastNoticeAt = last ? last.at : 0;
  }
};
