// makeenv play: one page for every game. Plain JS, no build step.
"use strict";

const $ = (id) => document.getElementById(id);
const app = { info: null, session: null, frames: new Map(), viewIndex: 0, following: true, poll: null, busy: false, updates: 0 };

// ---------------------------------------------------------------- helpers
function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

// Paths are relative ("api/info"), so the page also works when its app is mounted under a prefix.
async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: `HTTP ${response.status}` }; }
  if (!response.ok) {
    const error = new Error((data && data.error) || `HTTP ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

// What the page is waiting for (the first game compiles the game's code: seconds), or nothing.
function showLoading(message) {
  const box = $("loading");
  box.textContent = message || "";
  box.hidden = !message;
}

function showBanner(result) {
  const banner = $("banner");
  if (!result) { banner.hidden = true; banner.className = "banner"; return; }
  banner.textContent = result.text;
  banner.className = "banner " + (result.outcome || "unknown");
  banner.hidden = false;
}

// A small Markdown renderer for the guide: headings, paragraphs, lists, tables, code, emphasis.
function inline(text) {
  let html = escapeHtml(text);
  html = html.replace(/`([^`]+)`/g, "<code>$1</code>");
  html = html.replace(/\*\*([^*]+)\*\*/g, "<b>$1</b>");
  html = html.replace(/(^|[^*])\*([^*\s][^*]*)\*/g, "$1<i>$2</i>");
  html = html.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, "$1");
  return html;
}

function markdown(source) {
  const lines = String(source || "").replace(/\r\n?/g, "\n").split("\n");
  const out = [];
  let i = 0;
  const isTableRow = (line) => /^\s*\|.*\|\s*$/.test(line);
  const cells = (line) => line.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
  while (i < lines.length) {
    const line = lines[i];
    if (/^\s*```/.test(line)) {
      const code = [];
      i += 1;
      while (i < lines.length && !/^\s*```/.test(lines[i])) { code.push(lines[i]); i += 1; }
      i += 1;
      out.push("<pre><code>" + escapeHtml(code.join("\n")) + "</code></pre>");
    } else if (/^#{1,6}\s/.test(line)) {
      const level = Math.min(line.match(/^#+/)[0].length + 1, 6);
      out.push(`<h${level}>${inline(line.replace(/^#+\s*/, ""))}</h${level}>`);
      i += 1;
    } else if (isTableRow(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1])) {
      const head = cells(line);
      i += 2;
      const rows = [];
      while (i < lines.length && isTableRow(lines[i])) { rows.push(cells(lines[i])); i += 1; }
      out.push("<table><thead><tr>" + head.map((c) => `<th>${inline(c)}</th>`).join("") + "</tr></thead><tbody>" +
        rows.map((r) => "<tr>" + r.map((c) => `<td>${inline(c)}</td>`).join("") + "</tr>").join("") + "</tbody></table>");
    } else if (/^\s*([-*+]|\d+\.)\s+/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items = [];
      while (i < lines.length && /^\s*([-*+]|\d+\.)\s+/.test(lines[i])) {
        let item = lines[i].replace(/^\s*([-*+]|\d+\.)\s+/, "");
        i += 1;
        while (i < lines.length && /^\s{2,}\S/.test(lines[i]) && !/^\s*([-*+]|\d+\.)\s+/.test(lines[i])) {
          item += " " + lines[i].trim();
          i += 1;
        }
        items.push(`<li>${inline(item)}</li>`);
      }
      out.push((ordered ? "<ol>" : "<ul>") + items.join("") + (ordered ? "</ol>" : "</ul>"));
    } else if (/^\s*$/.test(line)) {
      i += 1;
    } else {
      const para = [];
      while (i < lines.length && !/^\s*$/.test(lines[i]) && !/^#{1,6}\s/.test(lines[i]) &&
             !/^\s*```/.test(lines[i]) && !isTableRow(lines[i]) && !/^\s*([-*+]|\d+\.)\s+/.test(lines[i])) {
        para.push(lines[i]);
        i += 1;
      }
      out.push(`<p>${inline(para.join(" "))}</p>`);
    }
  }
  return out.join("\n");
}

// ---------------------------------------------------------------- a game's SVG, inlined
// The picture is inlined (not an <img>) so its elements with data-action="k" can be clicked. It is
// parsed as XML and cleaned first: no scripts, no foreign HTML, no event handlers, no links or
// url() references outside the picture; its ids are renamed so they cannot clash with the page's.
const SVG_NS = "http://www.w3.org/2000/svg";
const DROPPED = new Set(["script", "foreignobject", "iframe", "object", "embed", "audio", "video", "handler"]);
const ANIMATIONS = new Set(["animate", "set", "animatemotion", "animatetransform", "discard"]);
const LOCAL_IMAGE = /^data:image\/(png|jpe?g|gif|webp)[;,]/i;
const OUTSIDE_URL = /url\s*\(\s*['"]?\s*(?!#)/i;

function cleanSvg(text) {
  text = String(text);
  if (!/<svg\b[^>]*\sxmlns\s*=/.test(text)) text = text.replace(/<svg\b/, `<svg xmlns="${SVG_NS}"`); // as HTML allows
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = doc.documentElement;
  const broken = doc.getElementsByTagName("parsererror")[0];
  if (broken || !root || root.localName !== "svg" || root.namespaceURI !== SVG_NS) {
    const why = broken ? broken.textContent.replace(/\s+/g, " ").trim().slice(0, 200) : "no <svg> root element";
    throw new Error(`render(state) returned SVG the page cannot use: ${why}`);
  }
  const renamed = new Map();
  for (const el of [root, ...root.querySelectorAll("*")]) {
    const name = el.localName.toLowerCase();
    if (DROPPED.has(name) || el.namespaceURI !== SVG_NS) { el.remove(); continue; }
    if (ANIMATIONS.has(name) && /^(on|href|xlink:href)/i.test(el.getAttribute("attributeName") || "")) { el.remove(); continue; }
    if (name === "style" && (OUTSIDE_URL.test(el.textContent) || /@import/i.test(el.textContent))) { el.remove(); continue; }
    for (const attr of [...el.attributes]) {
      const key = attr.name.toLowerCase();
      const value = attr.value.trim();
      const link = attr.localName.toLowerCase() === "href";
      if (key.startsWith("on") || (link && !value.startsWith("#") && !LOCAL_IMAGE.test(value)) ||
          OUTSIDE_URL.test(value)) {
        el.removeAttributeNode(attr);
      }
    }
    if (el.hasAttribute("id")) {
      renamed.set(el.getAttribute("id"), "picture-" + el.getAttribute("id"));
      el.setAttribute("id", renamed.get(el.getAttribute("id")));
    }
  }
  if (renamed.size) { // follow the renamed ids: href="#x", url(#x), aria-labelledby="x y"
    for (const el of [root, ...root.querySelectorAll("*")]) {
      for (const attr of [...el.attributes]) {
        let value = attr.value.replace(/url\(\s*(['"]?)#([^'")\s]+)\1\s*\)/g,
          (whole, quote, id) => renamed.has(id) ? `url(#${renamed.get(id)})` : whole);
        if (attr.localName.toLowerCase() === "href" && value.startsWith("#") && renamed.has(value.slice(1))) {
          value = "#" + renamed.get(value.slice(1));
        }
        if (/^aria-(labelledby|describedby)$/i.test(attr.name)) {
          value = value.split(/\s+/).map((id) => renamed.get(id) || id).join(" ");
        }
        if (value !== attr.value) attr.value = value;
      }
    }
  }
  if (!root.hasAttribute("viewBox")) { // so the picture scales with the page
    const width = parseFloat(root.getAttribute("width")), height = parseFloat(root.getAttribute("height"));
    if (width > 0 && height > 0) root.setAttribute("viewBox", `0 0 ${width} ${height}`);
  }
  return document.importNode(root, true);
}

// Elements with data-action="k" play k when k is valid now; others are shown but inert.
function wirePicture(svg, playable, play_ = playAction) {
  for (const el of svg.querySelectorAll("[data-action]")) {
    const action = Number(el.getAttribute("data-action"));
    if (!playable.has(action)) { el.classList.add("inert"); continue; }
    el.classList.add("playable");
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    if (!el.hasAttribute("aria-label")) el.setAttribute("aria-label", playable.get(action));
    const play = (event) => { event.preventDefault(); event.stopPropagation(); play_(action); };
    el.addEventListener("click", play);
    el.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") play(event); });
  }
}

// ---------------------------------------------------------------- start-up
async function start() {
  try {
    app.info = await api("GET", "api/info");
  } catch (error) {
    showLoading("");
    showError("Could not reach the server: " + error.message);
    return;
  }
  const info = app.info;
  $("leaderboard-link").hidden = !info.arena;
  const replay = new URLSearchParams(location.search).get("replay");
  if (replay) { await startReplay(replay); return; }
  document.title = `${info.game} · makeenv play`;
  $("game-name").textContent = info.game;
  const options = Object.entries(info.options || {}).filter(([name]) => name !== "players").map(([k, v]) => `${k}=${v}`);
  $("game-kind").textContent = info.kind === "array" ? ["array game", `${info.players} players`, ...options].join(" · ")
    : `text game · ${info.players} players`;
  $("guide").innerHTML = markdown(info.readme || "_This game has no README._");
  $("new-game").addEventListener("click", newGame);
  if (info.kind === "array") setupArray(info); else setupText(info);
  if (info.arena && info.kind === "array") {
    $("name-wrap").hidden = false;
    $("player-name").value = localStorage.getItem("makeenv-player-name") || "";
    $("player-name").addEventListener("change", () => localStorage.setItem("makeenv-player-name", $("player-name").value.trim()));
  }
  await newGame();
}

// ---------------------------------------------------------------- replays of stored games
// A kept game of the arena's database (?replay=ID, linked from the leaderboard): an array game in
// the history view (every state, read-only), a text game as its turns.
async function startReplay(id) {
  $("controls").hidden = true;
  showLoading("Replaying the stored game…");
  let replay;
  try {
    replay = await api("POST", "api/replays", { id: Number(id), seat: Number(new URLSearchParams(location.search).get("seat") || 0) });
  } catch (error) {
    showLoading("");
    showError(error.message);
    return;
  } finally { showLoading(""); }
  const title = `${replay.replay.game} · replay of game ${replay.replay.id}`;
  document.title = `${title} · makeenv play`;
  $("game-name").textContent = title;
  $("game-kind").textContent = `${replay.replay.tournament} · seed ${replay.replay.seed}`;
  if (replay.kind === "array") {
    app.info = replay.info;
    $("guide").innerHTML = markdown(replay.info.readme || "_This game has no README._");
    setupArray(replay.info);
    app.following = false;
    applyArray(replay, 0);
  } else {
    showTextReplay(replay);
  }
}

function showTextReplay(replay) {
  $("text-view").hidden = false;
  $("compose").hidden = true;
  $("text-seatline").textContent = replay.replay.seats.map((name, p) => `Player ${p}: ${name}`).join(" · ");
  $("transcript-wrap").querySelector("summary").textContent = `The game's ${replay.turns.length} turns`;
  $("transcript").textContent = replay.turns.map((t, i) => `── Turn ${i + 1}: player ${t.seat} (${t.name}) was told:\n` +
    `${t.observation}\n── and answered: ${t.answer === null ? `(nothing: ${t.error})` : t.answer}`).join("\n\n");
  showBanner({ text: replay.result.text, outcome: "unknown" });
  showError(replay.replay.forfeit ? `Forfeited: ${replay.replay.forfeit}` : "");
  app.updates += 1;
  document.body.dataset.updates = String(app.updates);
}

// ---------------------------------------------------------------- array games
const MANY_ACTIONS = 12; // more actions than this: smaller buttons, and the guide's table starts folded
function setupArray(info) {
  $("array-view").hidden = false;
  const level = $("level");
  const describe = info.level_descriptions || {};
  level.innerHTML = info.levels.map((l) => {
    const text = describe[String(l)] || "";
    const short = text.split(/[:.]/)[0].slice(0, 28);
    return `<option value="${l}" title="${escapeHtml(text)}">${l}${short ? " · " + escapeHtml(short) : ""}</option>`;
  }).join("");
  level.value = String(info.default_level);
  $("seat").innerHTML = '<option value="">Random</option><option value="first">Move first</option>' +
    Array.from({ length: info.players }, (_, p) => `<option value="${p}">Player ${p}</option>`).join("");
  const mode = $("mode");
  if (!info.modes.includes("watch")) {
    mode.querySelector('option[value="watch"]').disabled = true;
    mode.title = "Start `makeenv play` with --agent SPEC to watch an agent play.";
  } else {
    mode.querySelector('option[value="watch"]').textContent = `Watch the agent (${info.agent})`;
  }
  const hidden = new Set(info.private_actions || []);
  // After the rules (the README): the bot levels, then every action, folded away when there are many.
  $("action-guide").innerHTML =
    "<h3>Bot levels</h3><table><thead><tr><th>Level</th><th>Bots</th></tr></thead><tbody>" +
    info.levels.map((l) => `<tr><td>${l}</td><td>${escapeHtml(describe[String(l)] || "")}</td></tr>`).join("") +
    "</tbody></table>" +
    (info.agent ? `<p class="muted">Agent to watch: <b>${escapeHtml(info.agent)}</b></p>` : "") +
    `<details class="action-table"${info.actions.length <= MANY_ACTIONS ? " open" : ""}>` +
    `<summary>Actions (${info.actions.length})</summary>` +
    "<table><thead><tr><th>#</th><th>Means</th></tr></thead><tbody>" +
    info.actions.map((a) => `<tr><td>${a.action}</td><td>${escapeHtml(a.label)}` +
      `${hidden.has(a.action) ? ' <span class="muted">(hidden from the others)</span>' : ""}</td></tr>`).join("") +
    "</tbody></table></details>";
  $("prev").addEventListener("click", () => showFrame(app.viewIndex - 1));
  $("next").addEventListener("click", () => showFrame(app.viewIndex + 1));
  $("live").addEventListener("click", () => showFrame(app.session.length - 1));
  $("history-slider").addEventListener("input", (e) => showFrame(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (!app.session || app.info.kind !== "array" || e.target.tagName === "TEXTAREA") return;
    if (e.key === "ArrowLeft") showFrame(app.viewIndex - 1);
    if (e.key === "ArrowRight") showFrame(app.viewIndex + 1);
  });
}

async function newGame() {
  showError("");
  const body = { mode: "play" };
  const seat = $("seat").value;
  if (app.info.kind === "array") {
    body.mode = $("mode").value;
    const name = $("player-name").value.trim();
    if (name && body.mode === "play" && !$("name-wrap").hidden) body.name = name;
    body.level = Number($("level").value);
    if (seat !== "") body.seat = seat === "first" ? "first" : Number(seat);
  } else {
    const level = $("level").value;
    if (level !== "") body.level = level === "agent" ? "agent" : Number(level);
    if (seat !== "") body.seat = Number(seat);
  }
  $("new-game").disabled = true;
  showLoading(app.session ? "Starting a new game…" :
    "Starting the first game… the game's code is compiled (or loaded) first, which can take several seconds.");
  try {
    const session = await api("POST", "api/sessions", body);
    app.frames = new Map();
    app.following = true;
    if (app.info.kind === "array") {
      // A watched game is shown from its first state; a played game from the latest one.
      app.following = session.mode === "play";
      applyArray(session, session.mode === "watch" ? 0 : session.length - 1);
    } else {
      $("answer").value = "";
      updateCount();
      applyText(session);
    }
  } catch (error) {
    showError(error.message);
  } finally {
    showLoading("");
    $("new-game").disabled = false;
  }
}

function signed(x) {
  return x > 0 ? `+${x}` : x < 0 ? `−${-x}` : "0";
}

function applyArray(session, index) {
  if (session.result && !(app.session && app.session.result)) app.frames = new Map(); // now fully revealed
  app.session = session;
  app.frames.set(session.frame.index, session.frame);
  $("download").href = `api/sessions/${session.session_id}/history`;
  $("download").setAttribute("download", `${session.game}-history.json`);
  const names = session.seats.map((s) => s.player === session.seat
    ? `Player ${s.player}: ${s.name}` : `${s.name}${s.bot ? `: ${s.bot}` : ""}`);
  $("seatline").textContent = (session.mode === "replay"
    ? ["Replay", ...session.seat_names, `seen from player ${session.seat}`]
    : [session.mode === "watch" ? "Watching" : "", `Level ${session.level}`, ...names]).filter(Boolean).join(" · ");
  showBanner(session.result);
  const returns = $("returns");
  returns.hidden = !session.result;
  if (session.result) {
    returns.textContent = "Returns: " + session.result.returns.map((r, p) => `${session.seat_names[p]} ${signed(r)}`).join(" · ") +
      (session.result.truncated ? " · ended by the turn limit" : "") +
      (session.arena_note ? ` · ${session.arena_note}` : "");
  }
  showError(session.error ? session.error : "");
  const slider = $("history-slider");
  slider.max = String(session.length - 1);
  showFrame(index === undefined ? session.length - 1 : index);
  app.updates += 1;
  document.body.dataset.updates = String(app.updates); // tests wait on it
}

async function showFrame(index) {
  const session = app.session;
  if (!session) return;
  index = Math.max(0, Math.min(session.length - 1, index));
  app.viewIndex = index;
  app.following = index === session.length - 1;
  // Position first (at once), then the picture (a past state may come from the server).
  $("history-slider").value = String(index);
  $("frame-label").textContent = `State ${index} of ${session.length - 1}`;
  $("prev").disabled = index === 0;
  $("next").disabled = index === session.length - 1;
  $("live").disabled = index === session.length - 1;
  let frame = app.frames.get(index);
  if (!frame) {
    try {
      frame = await api("GET", `api/sessions/${session.session_id}/frames/${index}`);
      app.frames.set(index, frame);
    } catch (error) { showError(error.message); return; }
    if (app.viewIndex !== index) return; // the user moved on meanwhile
  }
  renderFrame(frame);
}

// A drawing names the other seats relative to its player (data-relative-seat="k": the k-th seat
// after the viewer); the page writes in the names the header and captions use.
function nameSeats(svg, session) {
  for (const el of svg.querySelectorAll("[data-relative-seat]")) {
    const offset = Number(el.getAttribute("data-relative-seat"));
    if (!Number.isInteger(offset)) continue;
    const name = session.seat_names[(((session.seat + offset) % session.players) + session.players) % session.players];
    if (name) el.textContent = name;
  }
}

// A past state is not playable: its prompts (data-prompt, e.g. "Your turn: click a cell") say so instead.
function markPast(svg, frame, session) {
  for (const el of svg.querySelectorAll("[data-prompt]")) {
    el.textContent = `Past state ${frame.index} of ${session.length - 1}`;
  }
}

// Pictures are shown at their own size (at least the page's usual width), smaller only when the
// window is narrower; the layout makes room for them (see --picture-width in style.css).
const MIN_PICTURE_WIDTH = 560;
function sizePicture(svg) {
  const box = svg.viewBox && svg.viewBox.baseVal;
  const natural = parseFloat(svg.getAttribute("width")) || (box && box.width) || MIN_PICTURE_WIDTH;
  const width = Math.max(natural, MIN_PICTURE_WIDTH);
  svg.style.maxWidth = `${width}px`;
  document.querySelector(".layout").style.setProperty("--picture-width", `${width}px`);
}

function renderPicture(frame, playable, past = false) {
  const holder = $("board-svg"), img = $("board-img"), fallback = $("board-fallback");
  holder.hidden = img.hidden = fallback.hidden = true;
  holder.replaceChildren();
  $("picture").classList.toggle("past", past);
  let problem = frame.image_error;
  if (frame.svg) {
    try {
      const svg = cleanSvg(frame.svg);
      wirePicture(svg, playable);
      nameSeats(svg, app.session);
      if (past) markPast(svg, frame, app.session);
      sizePicture(svg);
      holder.appendChild(svg);
      holder.hidden = false;
      return;
    } catch (error) { problem = error.message; }
  } else if (frame.image) {
    img.src = frame.image;
    img.hidden = false;
    return;
  }
  fallback.hidden = false;
  fallback.textContent = (problem ? problem + "\n\n" : "This game has no render(state).\n\n") +
    "State: [" + frame.state.join(", ") + "]";
}

function renderFrame(frame) {
  const session = app.session;
  const latest = frame.index === session.length - 1;
  const valid = latest ? session.valid_actions : [];
  renderPicture(frame, new Map(valid.map((a) => [a.action, a.label])), !latest);
  renderCaption(frame, latest ? session.recent : null);
  $("caption").dataset.frame = String(frame.index); // which state is drawn (tests wait on it)
  let turn = "";
  if (frame.to_move !== null && frame.to_move !== undefined) {
    turn = frame.to_move === session.seat && session.mode === "play" ? "Your move." : `${frame.to_move_name} to move.`;
  } else {
    turn = "Game over.";
  }
  $("turn").textContent = latest ? turn : `Viewing the past — ${turn}`;
  $("state-vec").textContent = "[" + frame.state.join(", ") + "]";
  $("env-vec").textContent = frame.env ? "[" + frame.env.join(", ") + "]" : "(hidden until the game is over)";
  const actions = $("actions");
  actions.innerHTML = "";
  actions.classList.toggle("many", valid.length > MANY_ACTIONS);
  for (const a of valid) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.action = String(a.action);
    button.innerHTML = `${escapeHtml(a.label)} <span class="num">${a.action}</span>`;
    button.addEventListener("click", () => playAction(a.action));
    actions.appendChild(button);
  }
}

// The move that led to a past state; at the latest state every move since the person's last one.
function renderCaption(frame, recent) {
  const caption = $("caption");
  const moves = recent && recent.moves.length > 1 ? recent.moves : null;
  caption.replaceChildren();
  caption.classList.toggle("moves", !!moves);
  if (!moves) {
    caption.textContent = frame.caption;
  } else {
    if (recent.earlier) caption.append(line(`… ${recent.earlier} earlier move${recent.earlier > 1 ? "s" : ""} (see the history)`, "muted"));
    for (const move of moves) caption.append(line(move.caption));
  }
}

function line(text, className) {
  const span = document.createElement("span");
  span.className = "move" + (className ? " " + className : "");
  span.textContent = text;
  return span;
}

async function playAction(action) {
  const session = app.session;
  if (app.busy) return; // one move at a time
  app.busy = true;
  for (const b of $("actions").querySelectorAll("button")) b.disabled = true;
  $("picture").classList.add("busy");
  try {
    const next = await api("POST", `api/sessions/${session.session_id}/actions`, { action });
    applyArray(next, next.length - 1);
  } catch (error) {
    showError(error.message);
    for (const b of $("actions").querySelectorAll("button")) b.disabled = false;
    app.updates += 1;
    document.body.dataset.updates = String(app.updates);
  } finally {
    app.busy = false;
    $("picture").classList.remove("busy");
  }
}

// ---------------------------------------------------------------- text games
// Any text env: the person's seat, what they were told, the game's picture and answers when it
// offers them (click or type), and the game's own result panel at the end.
function setupText(info) {
  $("text-view").hidden = false;
  $("mode-wrap").hidden = true;
  const hint = info.answer_hint || {};
  const opponents = info.opponents || [];
  $("level-wrap").firstChild.textContent = "Opponent ";
  $("level").innerHTML = opponents.map((o) => `<option value="${escapeHtml(o.value)}">${escapeHtml(o.label.slice(0, 60))}</option>`).join("");
  const preferred = info.default_level === null || info.default_level === undefined ? "agent" : String(info.default_level);
  $("level").value = preferred;
  $("level-wrap").hidden = opponents.length < 2;
  $("seat").innerHTML = '<option value="">Random</option>' +
    Array.from({ length: info.players }, (_, p) => `<option value="${p}">Player ${p}</option>`).join("");
  $("answer-label").textContent = hint.label || "Your answer";
  $("answer").placeholder = hint.placeholder || "";
  $("answer").rows = hint.multiline === false ? 1 : 9;
  $("submit").textContent = hint.button || "Send";
  const people = [];
  if (info.agent) people.push(`Opponent agent: <b>${escapeHtml(info.agent)}</b>`);
  if (info.jury) people.push(`Jury: <b>${escapeHtml(info.jury)}</b>`);
  $("action-guide").innerHTML = people.length ? `<p class="muted">${people.join("<br>")}</p>` : "";
  $("answer").addEventListener("input", updateCount);
  $("answer").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (hint.multiline === false || event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (!$("submit").disabled) sendAnswer($("answer").value);
    }
  });
  $("submit").addEventListener("click", () => sendAnswer($("answer").value));
  $("rejudge").addEventListener("click", async () => {
    try { applyText(await api("POST", `api/sessions/${app.session.session_id}/rejudge`)); }
    catch (error) { showError(error.message); }
  });
}

function updateCount() {
  $("char-count").textContent = `${$("answer").value.length} characters`;
}

async function sendAnswer(text) {
  const session = app.session;
  if (!session || app.busy) return;
  app.busy = true;
  showError("");
  $("submit").disabled = true;
  for (const b of $("text-options").querySelectorAll("button")) b.disabled = true;
  try {
    const next = await api("POST", `api/sessions/${session.session_id}/actions`, { action: text });
    $("answer").value = "";
    updateCount();
    applyText(next);
  } catch (error) {
    showError(error.message);
    $("submit").disabled = false;
    for (const b of $("text-options").querySelectorAll("button")) b.disabled = false;
  } finally {
    app.busy = false;
  }
}

function renderTextPicture(session) {
  const holder = $("text-board-svg"), img = $("text-board-img"), fallback = $("text-board-fallback");
  holder.hidden = img.hidden = fallback.hidden = true;
  holder.replaceChildren();
  $("text-picture").hidden = !(session.svg || session.image || session.image_error);
  const byAction = new Map(session.options.filter((o) => o.action !== null && o.action !== undefined)
    .map((o) => [o.action, o]));
  if (session.svg) {
    try {
      const svg = cleanSvg(session.svg);
      wirePicture(svg, new Map([...byAction].map(([a, o]) => [a, o.label])), (a) => sendAnswer(byAction.get(a).answer));
      sizePicture(svg);
      holder.appendChild(svg);
      holder.hidden = false;
      return;
    } catch (error) { fallback.textContent = error.message; fallback.hidden = false; return; }
  }
  if (session.image) { img.src = session.image; img.hidden = false; return; }
  if (session.image_error) { fallback.textContent = session.image_error; fallback.hidden = false; }
}

function applyText(session) {
  app.session = session;
  clearTimeout(app.poll);
  const download = $("text-download");
  download.href = `api/sessions/${session.session_id}/history`;
  download.setAttribute("download", `${session.game}-record.json`);
  download.hidden = !session.result && session.status !== "stalled";
  $("text-seatline").textContent = session.seat_names.map((name, p) => `Player ${p}: ${name}`).join(" · ");
  const status = $("status");
  status.textContent = session.message || "";
  status.className = "status " + session.status;
  const yourTurn = session.status === "your_turn";
  renderTextPicture(session);
  // Without a picture, what the person was told (a scenario, the offers) comes first.
  const transcriptWrap = $("transcript-wrap");
  if ($("text-picture").hidden) $("status").before(transcriptWrap); else $("panel").after(transcriptWrap);
  const options = $("text-options");
  options.innerHTML = "";
  options.classList.toggle("many", session.options.length > 12);
  for (const o of session.options) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.answer = o.answer;
    button.innerHTML = `${escapeHtml(o.label)} <span class="num">${escapeHtml(o.answer)}</span>`;
    button.addEventListener("click", () => sendAnswer(o.answer));
    options.appendChild(button);
  }
  // The person may write while the others think; sending waits for their turn.
  $("compose").hidden = !!session.result || session.status === "stalled" || session.status === "error";
  $("submit").disabled = !yourTurn;
  $("rejudge").hidden = session.status !== "stalled";
  const transcript = $("transcript");
  transcript.textContent = session.transcript || "";
  transcript.scrollTop = transcript.scrollHeight;
  showError(session.status === "error" ? session.error : "");
  showBanner(session.result);
  renderPanel(session.panel || [], session.board);
  app.updates += 1;
  document.body.dataset.updates = String(app.updates); // tests wait on it
  if (session.status === "working") {
    app.poll = setTimeout(async () => {
      try {
        const fresh = await api("GET", `api/sessions/${session.session_id}`);
        // A new game may have started while this answer was on its way: never show the old one.
        if (app.session && app.session.session_id === fresh.session_id) applyText(fresh);
      } catch (error) {
        if (app.session && app.session.session_id === session.session_id) showError(error.message);
      }
    }, 400);
  }
}

// A game's result panel: blocks of text, cards side by side, or tables.
function renderPanel(blocks, board) {
  const panel = $("panel");
  panel.hidden = blocks.length === 0 && !board;
  const html = blocks.map((block) => {
    const title = block.title ? `<h3>${escapeHtml(block.title)}</h3>` : "";
    if (block.kind === "cards") {
      return title + '<div class="cards">' + (block.cards || []).map((c) =>
        `<div class="card-block${c.lead ? " lead" : ""}"><div class="label">${escapeHtml(c.title)}</div>` +
        `<div class="card-text">${escapeHtml(c.text)}</div></div>`).join("") + "</div>";
    }
    if (block.kind === "table") {
      return title + '<div class="table-wrap"><table class="panel-table"><thead><tr>' +
        (block.columns || []).map((c) => `<th>${escapeHtml(c)}</th>`).join("") + "</tr></thead><tbody>" +
        (block.rows || []).map((r) => "<tr>" + r.map((c) => `<td>${escapeHtml(c === null ? "" : c)}</td>`).join("") + "</tr>").join("") +
        "</tbody></table></div>";
    }
    return title + `<div class="panel-text">${escapeHtml(block.text || "")}</div>`;
  });
  if (board) html.push(`<details class="board-text"><summary>The game's record</summary><pre>${escapeHtml(board)}</pre></details>`);
  panel.innerHTML = html.join("");
}

start();
