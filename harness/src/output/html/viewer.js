// arena replay viewer: draws every game's replays (arena-replay/2) from the
// replays embedded in the page (<script id="arena-replays">), with play,
// pause, step, scrub and speed. The URL fragment `#episode=N&tick=K` (K a
// number or `end`) selects what is shown. The state drawn is written into
// `data-state` of #viewer (the tick into `data-tick`, whether the game has
// a drawing into `data-drawn`) so that tests can
// read it from the DOM. No network: everything is in this page.
(function () {
  "use strict";
  var errors = [];
  function noteError(msg) {
    errors.push(String(msg));
    document.documentElement.setAttribute("data-errors", errors.join(" | "));
  }
  window.addEventListener("error", function (e) { noteError(e.message); });
  window.addEventListener("unhandledrejection", function (e) { noteError(e.reason); });

  var holder = document.getElementById("arena-replays");
  var root = document.getElementById("viewer");
  if (!holder || !root) return;
  var data = JSON.parse(holder.textContent);
  // data.index: [{episode, game, level, seats:[labels], steps, blob, line}],
  // data.blobs: base64 gzip members; a replay is the line-th line (blank
  // lines not counted) of its member.
  var cache = {};
  var member = { blob: -1, lines: null }; // the last member inflated
  var cur = null; // {replay, tick}
  var timer = null;

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function lines(b) {
    if (member.blob === b) return Promise.resolve(member.lines);
    var bin = atob(data.blobs[b]);
    var bytes = new Uint8Array(bin.length);
    for (var j = 0; j < bin.length; j++) bytes[j] = bin.charCodeAt(j);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(function (t) {
      var ls = t.split("\n").filter(function (l) { return l.trim() !== ""; });
      member = { blob: b, lines: ls };
      return ls;
    });
  }

  function load(i) {
    if (cache[i]) return Promise.resolve(cache[i]);
    var e = data.index[i];
    return lines(e.blob).then(function (ls) {
      var r = JSON.parse(ls[e.line]);
      cache[i] = r;
      return r;
    });
  }

  function parseHash() {
    var out = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      var p = kv.split("=");
      if (p[0]) out[decodeURIComponent(p[0])] = decodeURIComponent(p[1] || "");
    });
    return out;
  }

  // ---- drawing -------------------------------------------------------
  var canvas = $("v-board");
  var ctx = canvas.getContext("2d");
  var COLORS = { wall: "#4a4f5a", floor: "#f3efe6", grid: "#d8d2c4" };

  function setSize(w, h) {
    var ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(w * ratio);
    canvas.height = Math.round(h * ratio);
    canvas.style.width = w + "px";
    canvas.style.height = h + "px";
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, w, h);
  }
  function cellSize(cols, rows, maxW, maxH) {
    return Math.max(6, Math.floor(Math.min(maxW / cols, maxH / rows)));
  }
  function rect(x, y, w, h, fill) { ctx.fillStyle = fill; ctx.fillRect(x, y, w, h); }
  function disc(cx, cy, r, fill, stroke) {
    ctx.beginPath(); ctx.arc(cx, cy, r, 0, 2 * Math.PI);
    if (fill) { ctx.fillStyle = fill; ctx.fill(); }
    if (stroke) { ctx.strokeStyle = stroke; ctx.lineWidth = 2; ctx.stroke(); }
  }
  function glyph(text, cx, cy, size, color, font) {
    ctx.fillStyle = color;
    ctx.font = "bold " + Math.round(size) + "px " + (font || "sans-serif");
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText(text, cx, cy + size * 0.05);
  }
  function cross(x, y, s, color) {
    ctx.strokeStyle = color; ctx.lineWidth = Math.max(2, s / 8);
    ctx.beginPath(); ctx.moveTo(x + s * 0.2, y + s * 0.2); ctx.lineTo(x + s * 0.8, y + s * 0.8);
    ctx.moveTo(x + s * 0.8, y + s * 0.2); ctx.lineTo(x + s * 0.2, y + s * 0.8); ctx.stroke();
  }
  function gridRows(g) { return Array.isArray(g) ? g : String(g).split("/"); }

  // A grid game: `paint(ch, x, y, s, r, c)` draws one cell on the floor.
  function drawGrid(rows, paint) {
    var h = rows.length, w = 0;
    rows.forEach(function (r) { w = Math.max(w, r.length); });
    var s = cellSize(w, h, 560, 480);
    setSize(w * s, h * s);
    for (var r = 0; r < h; r++) {
      for (var c = 0; c < w; c++) {
        var ch = rows[r][c] || " ";
        rect(c * s, r * s, s, s, COLORS.floor);
        paint(ch, c * s, r * s, s, r, c);
        ctx.strokeStyle = COLORS.grid; ctx.lineWidth = 1;
        ctx.strokeRect(c * s + 0.5, r * s + 0.5, s - 1, s - 1);
      }
    }
    return s;
  }
  function box(x, y, s, fill, border) {
    rect(x + s * 0.12, y + s * 0.12, s * 0.76, s * 0.76, fill);
    ctx.strokeStyle = border; ctx.lineWidth = Math.max(2, s / 12);
    ctx.strokeRect(x + s * 0.12, y + s * 0.12, s * 0.76, s * 0.76);
  }
  function avatar(x, y, s, fill) { disc(x + s / 2, y + s / 2, s * 0.34, fill, "#17305e"); }

  var draw = {};
  draw.bait = function (st) {
    drawGrid(gridRows(st.grid), function (ch, x, y, s) {
      switch (ch) {
        case "w": rect(x, y, s, s, COLORS.wall); break;
        case "0": disc(x + s / 2, y + s / 2, s * 0.38, "#111", null); break;
        case "1": box(x, y, s, "#b7793e", "#6b4217"); break;
        case "k": glyph("k", x + s / 2, y + s / 2, s * 0.6, "#c99700"); break;
        case "K": box(x, y, s, "#b7793e", "#6b4217"); glyph("k", x + s / 2, y + s / 2, s * 0.45, "#ffe680"); break;
        case "g": rect(x + 2, y + 2, s - 4, s - 4, "#3aa655"); glyph("G", x + s / 2, y + s / 2, s * 0.55, "#fff"); break;
        case "G": box(x, y, s, "#b7793e", "#3aa655"); break;
        case "m": disc(x + s / 2, y + s / 2, s * 0.28, "#d2352b", "#7d1a14"); break;
        case "A": avatar(x, y, s, "#3d7be0"); break;
        case "B": avatar(x, y, s, "#3d7be0"); glyph("k", x + s / 2, y + s / 2, s * 0.45, "#ffd84a"); break;
        case "X": case "Y": disc(x + s / 2, y + s / 2, s * 0.38, "#111", null); cross(x, y, s, "#e03d3d"); break;
        default: break;
      }
    });
  };
  draw.sokoban = function (st) {
    drawGrid(gridRows(st.grid), function (ch, x, y, s) {
      if (ch === "#") rect(x, y, s, s, COLORS.wall);
      if (ch === "." || ch === "*" || ch === "+") disc(x + s / 2, y + s / 2, s * 0.18, "#3aa655", null);
      if (ch === "$") box(x, y, s, "#c98a3f", "#6b4217");
      if (ch === "*") box(x, y, s, "#7cc77c", "#2f7d3a");
      if (ch === "@" || ch === "+") avatar(x, y, s, "#3d7be0");
    });
  };
  draw.supply = function (st) {
    var rows = gridRows(st.grid);
    var s = drawGrid(rows, function (ch, x, y, s) {
      if (ch === "#") rect(x, y, s, s, COLORS.wall);
      if (ch === "S") { rect(x + 2, y + 2, s - 4, s - 4, "#8fd18f"); glyph("S", x + s / 2, y + s / 2, s * 0.5, "#1d5e1d"); }
      if (ch === "E") { rect(x + 2, y + 2, s - 4, s - 4, "#f2c14e"); glyph("E", x + s / 2, y + s / 2, s * 0.5, "#6b4d00"); }
      if (ch === "@") { avatar(x, y, s, "#3d7be0"); glyph(String(st.food), x + s / 2, y + s / 2, s * 0.4, "#fff"); }
    });
    // Food left, as a bar along the top.
    var w = canvas.width / (window.devicePixelRatio || 1);
    var frac = st.capacity ? st.food / st.capacity : 0;
    rect(0, 0, w, 4, "#ddd");
    rect(0, 0, w * frac, 4, frac > 0.25 ? "#3aa655" : "#e03d3d");
    return s;
  };
  draw.snake = function (st) {
    var rows = st.height, cols = st.width;
    var s = cellSize(cols, rows, 560, 480);
    setSize(cols * s, rows * s);
    for (var r = 0; r < rows; r++) for (var c = 0; c < cols; c++) {
      rect(c * s, r * s, s, s, COLORS.floor);
      ctx.strokeStyle = COLORS.grid; ctx.strokeRect(c * s + 0.5, r * s + 0.5, s - 1, s - 1);
    }
    (st.obstacle || []).forEach(function (o) { rect((o.y - 1) * s, (o.x - 1) * s, s, s, COLORS.wall); });
    var fills = [["#3d7be0", "#17305e"], ["#e08a3d", "#7a3f0b"]];
    (st.bodies || []).forEach(function (body, k) {
      var alive = !st.alive || st.alive[k];
      var col = alive ? fills[k % 2] : ["#9a9a9a", "#555"];
      for (var i = body.length - 1; i >= 0; i--) {
        var x = (body[i][1] - 1) * s, y = (body[i][0] - 1) * s;
        if (i === 0) {
          disc(x + s / 2, y + s / 2, s * 0.44, col[1], null);
          glyph(String(k), x + s / 2, y + s / 2, s * 0.5, "#fff");
          if (!alive) cross(x, y, s, "#e03d3d");
        } else {
          rect(x + s * 0.1, y + s * 0.1, s * 0.8, s * 0.8, col[0]);
        }
      }
    });
  };
  var XQ = { K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
             k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒" };
  draw.xiangqi = function (st) {
    var s = 46, m = 30, W = 8 * s + 2 * m, H = 9 * s + 2 * m;
    setSize(W, H);
    rect(0, 0, W, H, "#efd6a2");
    ctx.strokeStyle = "#5b3a12"; ctx.lineWidth = 1.5;
    var X = function (f) { return m + f * s; }, Y = function (r) { return m + r * s; };
    for (var r = 0; r < 10; r++) { ctx.beginPath(); ctx.moveTo(X(0), Y(r)); ctx.lineTo(X(8), Y(r)); ctx.stroke(); }
    for (var f = 0; f < 9; f++) {
      ctx.beginPath();
      if (f === 0 || f === 8) { ctx.moveTo(X(f), Y(0)); ctx.lineTo(X(f), Y(9)); }
      else { ctx.moveTo(X(f), Y(0)); ctx.lineTo(X(f), Y(4)); ctx.moveTo(X(f), Y(5)); ctx.lineTo(X(f), Y(9)); }
      ctx.stroke();
    }
    [[0, 2], [7, 9]].forEach(function (p) {
      ctx.beginPath();
      ctx.moveTo(X(3), Y(p[0])); ctx.lineTo(X(5), Y(p[1]));
      ctx.moveTo(X(5), Y(p[0])); ctx.lineTo(X(3), Y(p[1])); ctx.stroke();
    });
    glyph("楚 河", X(2), Y(4.5), s * 0.45, "#5b3a12", "serif");
    glyph("漢 界", X(6), Y(4.5), s * 0.45, "#5b3a12", "serif");
    // The last move (ICCS, e.g. h2e2: files a-i, ranks 0-9 from red's side).
    var moves = st.moves || [];
    var last = moves.length ? moves[moves.length - 1] : null;
    if (last && /^[a-i][0-9][a-i][0-9]$/.test(last)) {
      [[last[0], last[1]], [last[2], last[3]]].forEach(function (sq, i) {
        var f = sq[0].charCodeAt(0) - 97, rr = 9 - Number(sq[1]);
        ctx.strokeStyle = i ? "#1f7a1f" : "#6fbf6f"; ctx.lineWidth = 3;
        ctx.strokeRect(X(f) - s * 0.47, Y(rr) - s * 0.47, s * 0.94, s * 0.94);
      });
    }
    var ranks = String(st.fen || "").split(" ")[0].split("/");
    ranks.forEach(function (row, r) {
      var f = 0;
      for (var i = 0; i < row.length; i++) {
        var ch = row[i];
        if (/[0-9]/.test(ch)) { f += Number(ch); continue; }
        var red = ch === ch.toUpperCase();
        disc(X(f), Y(r), s * 0.42, "#fbf3e0", red ? "#b3201a" : "#222");
        glyph(XQ[ch] || ch, X(f), Y(r), s * 0.5, red ? "#b3201a" : "#222", "'Noto Sans CJK SC','WenQuanYi Zen Hei','Microsoft YaHei',serif");
        f++;
      }
    });
  };
  draw.connect4 = function (st, prev) {
    var rows = st.board || [];
    var h = rows.length, w = h ? rows[0].length : 0;
    var s = cellSize(w, h, 480, 420);
    setSize(w * s, h * s);
    rect(0, 0, w * s, h * s, "#2456b0");
    var changed = null;
    for (var r = 0; r < h; r++) for (var c = 0; c < w; c++) {
      var ch = rows[r][c];
      if (prev && prev.board && prev.board[r] && prev.board[r][c] !== ch) changed = [r, c];
      var fill = ch === "X" ? "#e0332b" : ch === "O" ? "#f5cf2b" : "#f3efe6";
      disc(c * s + s / 2, r * s + s / 2, s * 0.4, fill, null);
    }
    if (changed) disc(changed[1] * s + s / 2, changed[0] * s + s / 2, s * 0.43, null, "#fff");
  };
  // A VGDL game (gvgai:NAME, gvgai2p:NAME, vgdl:PATH): every sprite a
  // square of its type's colour (`colors`: its `color` parameter or a hash
  // of its name), scaled from pixels to the canvas, the avatar marked with
  // a ring; with several players (`players`), each avatar is a badge of
  // its player's colour and number (at least 16 px across).
  draw.vgdl = function (st) {
    var w = st.width || 1, h = st.height || 1, block = st.block || 1;
    var s = cellSize(w, h, 560, 480), k = s / block;
    setSize(w * s, h * s);
    rect(0, 0, w * s, h * s, COLORS.floor);
    var colors = st.colors || {};
    (st.grid || []).forEach(function (row, r) {
      row.forEach(function (types, c) {
        types.forEach(function (t, i) {
          var inset = i === 0 ? 0 : s * 0.12;
          rect(c * s + inset, r * s + inset, s - 2 * inset, s - 2 * inset, colors[t] || "#888");
        });
      });
    });
    var many = Array.isArray(st.players);
    var avatars = many ? st.players.map(function (p) { return p.avatar; }) : [st.avatar];
    avatars.forEach(function (a, n) {
      if (!a || typeof a !== "object") return;
      var x = a.x * k + s / 2, y = a.y * k + s / 2, ring = VGDL_PLAYERS[n % VGDL_PLAYERS.length];
      if (many) {
        // A badge with the player's number, legible however small the cells.
        var r = Math.max(s * 0.42, 8);
        disc(x, y, r, ring, "#17305e");
        glyph(String(n), x, y, r * 1.3, "#17305e");
        return;
      }
      disc(x, y, s * 0.42, null, "#17305e");
      disc(x, y, s * 0.3, null, "#fff");
    });
  };
  var VGDL_PLAYERS = ["#fff", "#ffd84a", "#ff7a7a", "#7af0a8"];
  function drawerOf(game) {
    return draw[game] || (/^(gvgai|gvgai2p|vgdl):/.test(game) ? draw.vgdl : null);
  }
  function drawUnknown() { setSize(200, 40); glyph("(no drawing for this game)", 100, 20, 12, "#666"); }

  // ---- the panel ------------------------------------------------------
  function fmt(x, d) { return x === null || x === undefined ? "" : Number(x).toFixed(d === undefined ? 1 : d); }
  function scoreOf(st, game) {
    if (game === "snake") {
      return (st.bodies || []).map(function (b, k) {
        return "snake " + k + ": length " + b.length + (st.alive && !st.alive[k] ? " (dead)" : "");
      }).join(", ");
    }
    if (game === "xiangqi") return (st.side || "") + " to move" + (st.in_check ? ", in check" : "");
    if (game === "connect4") return (st.to_move ? st.to_move + " to move" : "");
    if (Array.isArray(st.players)) {
      return st.players.map(function (p, k) {
        var a = p.avatar, bits = ["player " + k + ": score " + p.score];
        if (p.winner && p.winner !== "none") bits.push(p.winner);
        if (a && a.resources) Object.keys(a.resources).forEach(function (r) { bits.push(r + " " + a.resources[r]); });
        if (a && a.health) bits.push("health " + a.health);
        if (!a) bits.push("no avatar");
        return bits.join(" ");
      }).join(", ");
    }
    var parts = [];
    if (st.score !== undefined) parts.push("score " + st.score);
    if (st.food !== undefined) parts.push("food " + st.food + "/" + st.capacity);
    if (st.boxes_on_goals !== undefined) parts.push("boxes on goals " + st.boxes_on_goals);
    if (st.has_key) parts.push("has the key");
    if (st.avatar && st.avatar.resources) {
      Object.keys(st.avatar.resources).forEach(function (k) { parts.push(k + " " + st.avatar.resources[k]); });
    }
    if (st.avatar && st.avatar.health) parts.push("health " + st.avatar.health);
    return parts.join(", ");
  }

  // The last frame: the result in words instead of who is to move.
  function resultText(r, st) {
    var seats = r.seats;
    var why = st && st.reason ? " (" + st.reason + ")" : "";
    var failed = seats.filter(function (x) { return x.outcome && x.outcome !== "normal"; })
      .map(function (x) { return x.agent + " " + x.outcome; });
    var tail = (failed.length ? "; " + failed.join(", ") : "") + why;
    if (seats.length === 1) {
      return "game over: " + seats[0].result + ", score " + seats[0].score + tail;
    }
    var winners = seats.map(function (x, k) { return { s: x, k: k }; })
      .filter(function (x) { return x.s.result === "win"; });
    if (winners.length === 1) {
      return "game over: " + winners[0].s.agent + " (seat " + winners[0].k + ") won" + tail;
    }
    if (seats.every(function (x) { return x.result === "draw"; })) return "game over: draw" + tail;
    return "game over: " + seats.map(function (x) { return x.agent + " " + x.result; }).join(", ") + tail;
  }

  function timeBar(ms, lim) {
    var wrap = el("span", { "class": "tbar" });
    if (ms === null || ms === undefined) { wrap.textContent = "-"; return wrap; }
    var hard = lim.act_hard_ms || 1, soft = lim.act_ms || 0;
    var fill = el("span", { "class": "fill" + (ms > soft ? " over" : "") });
    fill.style.width = Math.min(100, 100 * ms / hard) + "%";
    var mark = el("span", { "class": "soft" });
    mark.style.left = Math.min(100, 100 * soft / hard) + "%";
    wrap.appendChild(fill); wrap.appendChild(mark);
    wrap.title = fmt(ms, 2) + " ms (soft " + soft + " ms, hard " + hard + " ms)";
    return wrap;
  }

  function render() {
    if (!cur) return;
    var r = cur.replay, t = cur.tick, n = r.ticks.length;
    var st = r.states[t] || {};
    try {
      (drawerOf(r.game) || drawUnknown)(st, t > 0 ? r.states[t - 1] : null);
    } catch (e) { noteError(e); }
    root.setAttribute("data-state", JSON.stringify(st));
    root.setAttribute("data-tick", String(t));
    root.setAttribute("data-drawn", drawerOf(r.game) ? "yes" : "no");
    root.setAttribute("data-episode", String(r.episode));
    $("v-state").textContent = JSON.stringify(st);
    $("v-scrub").max = String(n);
    $("v-scrub").value = String(t);
    $("v-tick").textContent = "step " + t + " / " + n;
    var tk = t > 0 ? r.ticks[t - 1] : null;
    $("v-actions").textContent = tk ? "actions of step " + t + ": " + tk.actions : "start position";
    $("v-score").textContent = t === n ? resultText(r, st) : scoreOf(st, r.game);
    var tb = $("v-seats");
    tb.textContent = "";
    var head = el("tr");
    ["seat", "agent", "act ms", "vs limits", "overrun"].forEach(function (h) { head.appendChild(el("th", null, h)); });
    tb.appendChild(head);
    r.seats.forEach(function (seat, s) {
      var tr = el("tr");
      var ms = tk ? tk.act_ms[s] : null;
      var over = tk ? tk.overrun[s] : false;
      tr.appendChild(el("td", null, String(s)));
      tr.appendChild(el("td", null, seat.agent));
      tr.appendChild(el("td", { "class": "num" }, ms === null || ms === undefined ? "-" : fmt(ms, 2)));
      var cell = el("td"); cell.appendChild(timeBar(ms, seat.limits)); tr.appendChild(cell);
      tr.appendChild(el("td", { "class": over ? "bad" : "" }, over ? "OVERRUN (fallback played)" : ""));
      tb.appendChild(tr);
    });
    var outc = $("v-outcome");
    outc.textContent = "";
    if (t === n) {
      outc.appendChild(el("div", { "class": "otitle" }, "Outcome after " + n + " steps"));
      r.seats.forEach(function (seat, s) {
        var line = "seat " + s + " " + seat.agent + ": " + seat.result + " (" + seat.outcome + "), score " + seat.score;
        if (seat.detail) line += " - " + seat.detail;
        outc.appendChild(el("div", { "class": "res-" + seat.result }, line));
      });
    }
    outc.setAttribute("data-outcome", t === n ? r.seats.map(function (x) { return x.result; }).join("/") : "");
  }

  function show(i, tick) {
    return load(i).then(function (r) {
      var n = r.ticks.length;
      var t = tick === "end" ? n : Math.max(0, Math.min(n, Number(tick) || 0));
      cur = { replay: r, tick: t, index: i };
      var lims = r.seats.map(function (s) { return s.agent + " " + s.limits.act_ms + "/" + s.limits.act_hard_ms + " ms"; });
      $("v-title").textContent = r.game + " - level " + r.level.spec + " - episode " + r.episode +
        " (seed " + data.index[i].seed + ") - " + r.seats.map(function (s) { return s.agent; }).join(" vs ") +
        " - limits: " + lims.join(", ");
      $("v-episode").value = String(i);
      root.hidden = false;
      render();
    }).catch(noteError);
  }

  function step(d) {
    if (!cur) return;
    cur.tick = Math.max(0, Math.min(cur.replay.ticks.length, cur.tick + d));
    render();
  }
  function stop() { if (timer) { clearInterval(timer); timer = null; } $("v-play").textContent = "play"; }
  function play() {
    if (timer) { stop(); return; }
    if (cur && cur.tick >= cur.replay.ticks.length) cur.tick = 0;
    $("v-play").textContent = "pause";
    timer = setInterval(function () {
      if (!cur || cur.tick >= cur.replay.ticks.length) { stop(); return; }
      step(1);
    }, 1000 / Number($("v-speed").value));
  }

  // ---- wiring ------------------------------------------------------------
  var standalone = root.hasAttribute("data-standalone");
  if (standalone) $("v-close").hidden = true;
  else root.classList.add("overlay");
  function close() {
    stop();
    root.hidden = true;
    history.replaceState(null, "", location.pathname + location.search + "#episodes");
  }
  $("v-close").addEventListener("click", close);
  var sel = $("v-episode");
  data.index.forEach(function (e, i) {
    sel.appendChild(el("option", { value: String(i) },
      "episode " + e.episode + ": " + e.level + " - " + e.seats.join(" vs ") + " (" + e.steps + " steps)"));
  });
  sel.addEventListener("change", function () { stop(); location.hash = "episode=" + data.index[Number(sel.value)].episode; });
  $("v-first").addEventListener("click", function () { stop(); step(-1e9); });
  $("v-prev").addEventListener("click", function () { stop(); step(-1); });
  $("v-next").addEventListener("click", function () { stop(); step(1); });
  $("v-last").addEventListener("click", function () { stop(); step(1e9); });
  $("v-play").addEventListener("click", play);
  $("v-speed").addEventListener("change", function () { if (timer) { stop(); play(); } });
  $("v-scrub").addEventListener("input", function () { stop(); if (cur) { cur.tick = Number(this.value); render(); } });
  document.addEventListener("keydown", function (e) {
    if (!cur || root.hidden || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "Escape" && !standalone) close();
    else if (e.key === "ArrowRight") step(1);
    else if (e.key === "ArrowLeft") step(-1);
    else if (e.key === " ") { play(); e.preventDefault(); }
  });

  function fromHash() {
    var h = parseHash();
    if (h.episode === undefined && !standalone) { stop(); root.hidden = true; return; }
    var i = 0;
    if (h.episode !== undefined) {
      i = data.index.findIndex(function (e) { return String(e.episode) === h.episode; });
      if (i < 0) { noteError("no replay of episode " + h.episode + " in this page"); return; }
    }
    stop();
    show(i, h.tick === undefined ? 0 : h.tick);
  }
  window.addEventListener("hashchange", fromHash);
  if (data.index.length) fromHash();
})();
