// makeenv play: the arena's leaderboard (ratings with intervals, the win-rate heat map, the stored
// games with links to their replays). Plain JS, no build step; data from api/arena/leaderboard.
"use strict";

const $ = (id) => document.getElementById(id);

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function signed(x) {
  const r = Math.round(x);
  return r > 0 ? `+${r}` : r < 0 ? `−${-r}` : "0";
}

// A win rate as a colour: red (0) through pale yellow (one half) to green (1).
function heat(rate) {
  const hue = 8 + rate * 122;
  return `hsl(${hue}, 62%, ${78 - 14 * Math.abs(rate - 0.5)}%)`;
}

async function load(game) {
  $("loading").hidden = false;
  $("error").hidden = true;
  const query = game === null ? "" : `?game=${encodeURIComponent(game)}`;
  try {
    const response = await fetch(`api/arena/leaderboard${query}`);
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
    render(data);
  } catch (error) {
    $("error").textContent = error.message;
    $("error").hidden = false;
  } finally {
    $("loading").hidden = true;
  }
}

function render(data) {
  $("db").textContent = data.db;
  const filter = $("game-filter");
  const chosen = data.game || "";
  filter.innerHTML = '<option value="">All games (each weighted equally)</option>' +
    data.games.map((g) => `<option value="${escapeHtml(g)}">${escapeHtml(g)}</option>`).join("");
  filter.value = chosen;
  const games = data.tournaments.filter((t) => !chosen || t.game === chosen).reduce((n, t) => n + t.games, 0);
  $("summary").textContent = data.exists
    ? `${data.tournaments.length} tournament(s) in the database · ${games.toLocaleString()} game(s) here`
    : "No database yet: play a tournament (makeenv tournament) or a game under a name.";
  renderRatings(data);
  renderHeatmap(data.matrix);
  renderReplays(data.replays);
  document.body.dataset.loaded = String(Number(document.body.dataset.loaded || 0) + 1); // tests wait on it
}

function renderRatings(data) {
  const rows = data.ratings;
  const level = Math.round(100 * (data.level || 0.95));
  $("interval-head").textContent = `${level}% interval`;
  $("ratings-note").textContent = rows.length
    ? `Bradley-Terry on the Elo scale (400 points: 10-to-1 odds), ${data.anchor ? `${data.anchor} rated 0` : "mean 0"}; ` +
      "intervals from a bootstrap of the games; a person is human:NAME."
    : "";
  const low = Math.min(0, ...rows.map((r) => r.lower)), high = Math.max(0, ...rows.map((r) => r.upper));
  const at = (x) => `${(100 * (x - low)) / Math.max(high - low, 1)}%`;
  $("ratings").querySelector("tbody").innerHTML = rows.length ? rows.map((r) =>
    `<tr data-entrant="${escapeHtml(r.name)}"><td class="num">${r.rank}</td><td>${escapeHtml(r.name)}</td>` +
    `<td class="num">${signed(r.elo)}</td><td class="num">${signed(r.lower)} … ${signed(r.upper)}</td>` +
    `<td><div class="interval" title="${signed(r.lower)} … ${signed(r.upper)}"><span class="zero" style="left:${at(0)}"></span>` +
    `<span class="span" style="left:${at(r.lower)};width:calc(${at(r.upper)} - ${at(r.lower)})"></span>` +
    `<span class="dot" style="left:${at(r.elo)}"></span></div></td>` +
    `<td class="num">${r.games.toLocaleString()}</td><td class="num">${(100 * r.score).toFixed(1)}%</td></tr>`).join("")
    : '<tr><td colspan="7" class="empty">No games stored for this choice.</td></tr>';
}

function renderHeatmap(matrix) {
  const table = $("heatmap");
  if (!matrix.names.length) { table.innerHTML = '<tr><td class="none">No games.</td></tr>'; return; }
  const head = "<tr><th></th>" + matrix.names.map((n) => `<th class="col">${escapeHtml(n)}</th>`).join("") + "</tr>";
  const body = matrix.names.map((row, i) => `<tr><th>${escapeHtml(row)}</th>` + matrix.rates[i].map((rate, j) =>
    rate === null
      ? `<td class="none">${i === j ? "" : "·"}</td>`
      : `<td data-rate="${rate}" title="${escapeHtml(row)} against ${escapeHtml(matrix.names[j])}: ${(100 * rate).toFixed(1)}%">` +
        `${Math.round(100 * rate)}</td>`).join("") + "</tr>").join("");
  table.innerHTML = head + body;
  for (const cell of table.querySelectorAll("td[data-rate]")) cell.style.background = heat(Number(cell.dataset.rate));
  const bar = $("legend-bar");
  bar.replaceChildren();
  for (let k = 0; k <= 10; k += 1) {
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.cssText = `display:inline-block;width:18px;height:10px;background:${heat(k / 10)}`;
    bar.appendChild(swatch);
  }
}

function renderReplays(replays) {
  $("replays").querySelector("tbody").innerHTML = replays.length ? replays.map((g) => {
    const winners = g.seats.filter((_, p) => g.winners[p] === "1");
    const result = g.forfeit ? `forfeit: ${g.forfeit.slice(0, 60)}` : winners.length && winners.length < g.seats.length ? winners.join(", ") : "draw";
    return `<tr><td>${escapeHtml(g.game)}</td><td>${escapeHtml(g.tournament)}</td><td>${escapeHtml(g.seats.join(" vs "))}</td>` +
      `<td>${escapeHtml(result)}</td><td class="num">${g.length}</td>` +
      `<td><a class="button small replay" href="./?replay=${g.id}">Replay</a></td></tr>`;
  }).join("") : '<tr><td colspan="6" class="empty">No stored games.</td></tr>';
}

async function start() {
  $("game-filter").addEventListener("change", (e) => {
    const url = new URL(location.href);
    url.searchParams.set("game", e.target.value);
    history.replaceState(null, "", url);
    load(e.target.value);
  });
  await load(new URLSearchParams(location.search).get("game")); // none: the served game, if it has games
}

start();
