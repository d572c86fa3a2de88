/* termeval report.html: sortable and filterable tables, and the timeline (a recording and a
   time range: gold tiers, the system's tiers, its hits and errors). No request leaves the page. */
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var STATUS = {hit: "#2ca02c", missed: "#d62728", miss: "#d62728", spurious: "#ff7f0e", fa: "#ff7f0e",
                reject: "#9aa4ad", segment: "#9ecae1"};

  function num(text) {
    var t = text.trim();
    if (t === "" || t === "NA" || t === "-") return null;
    var v = Number(t);
    return isNaN(v) ? undefined : v;
  }

  /* ---------------------------------------------------------------- tables */
  function sortable(table) {
    var heads = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(heads, function (th, k) {
      th.addEventListener("click", function () {
        var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
        var desc = th.classList.contains("te-asc");
        Array.prototype.forEach.call(heads, function (h) { h.classList.remove("te-asc", "te-desc"); });
        th.classList.add(desc ? "te-desc" : "te-asc");
        var numeric = rows.every(function (r) { return num(r.cells[k] ? r.cells[k].textContent : "") !== undefined; });
        rows.sort(function (a, b) {
          var x = a.cells[k] ? a.cells[k].textContent : "", y = b.cells[k] ? b.cells[k].textContent : "", c;
          if (numeric) {
            x = num(x); y = num(y);
            c = x === null ? (y === null ? 0 : 1) : y === null ? -1 : x - y;
            if (x !== null && y !== null && desc) c = -c;
            return c;
          }
          c = x < y ? -1 : x > y ? 1 : 0;
          return desc ? -c : c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  }

  function filterable(input) {
    var table = input.parentNode.querySelector("table.te-data");
    input.addEventListener("input", function () {
      var q = input.value.toLowerCase();
      Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
        r.classList.toggle("te-hidden", q !== "" && r.textContent.toLowerCase().indexOf(q) < 0);
      });
    });
  }

  /* ---------------------------------------------------------------- timeline */
  function el(name, attrs, parent) {
    var e = document.createElementNS(SVGNS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  function hue(text) {
    var h = 0;
    for (var i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) >>> 0;
    return (h * 137.508) % 360;
  }

  function colour(tier, label, k) {
    if (tier.colour === "gold") return k % 2 ? "#dfe4ea" : "#eef1f4";
    if (tier.colour === "class") return "hsl(" + hue(label).toFixed(0) + ",62%,72%)";
    if (tier.colour === "status") return STATUS[label] || "#9aa4ad";
    return STATUS[tier.colour] || "#9aa4ad";
  }

  function niceStep(span) {
    var raw = span / 10, mag = Math.pow(10, Math.floor(Math.log10(raw)));
    var steps = [1, 2, 5, 10];
    for (var i = 0; i < steps.length; i++) if (steps[i] * mag >= raw) return steps[i] * mag;
    return 10 * mag;
  }

  function visible(tier, from, to) {
    var out = [], s = tier.start, e = tier.end || tier.start;
    for (var i = 0; i < s.length; i++) {
      if (s[i] > to) break;
      if (e[i] >= from) out.push(i);
    }
    return out;
  }

  function laneOf(tier, idx) {
    var ends = [], lanes = [];
    idx.forEach(function (i) {
      var k = 0;
      while (k < ends.length && ends[k] > tier.start[i]) k++;
      ends[k] = tier.end[i];
      lanes.push(k);
    });
    return {lanes: lanes, n: Math.max(1, ends.length)};
  }

  function draw(box, rec, from, to) {
    var W = 1200, NAME = 130, ROW = 18, TOP = 22, width = W - NAME - 8;
    var x = function (t) { return NAME + (t - from) / (to - from) * width; };
    var layout = rec.tiers.map(function (tier) {
      var idx = visible(tier, from, to);
      var lanes = tier.points ? {lanes: idx.map(function () { return 0; }), n: 1} : laneOf(tier, idx);
      return {tier: tier, idx: idx, lanes: lanes.lanes, n: lanes.n};
    });
    var height = TOP + layout.reduce(function (h, l) { return h + l.n * ROW + 6; }, 0) + 4;
    var svg = el("svg", {"class": "te-tl-svg", viewBox: "0 0 " + W + " " + height, "data-recording": rec.name,
                         "data-from": from, "data-to": to});
    var step = niceStep(to - from), axis = el("g", {"class": "te-axis"}, svg);
    for (var t = Math.ceil(from / step) * step; t <= to + 1e-9; t += step) {
      el("line", {x1: x(t), x2: x(t), y1: TOP - 4, y2: height, stroke: "#edf0f3"}, axis);
      el("text", {x: x(t), y: 12, "text-anchor": "middle"}, axis).textContent = +t.toFixed(6) + " s";
    }
    var y = TOP;
    layout.forEach(function (l) {
      var tier = l.tier, g = el("g", {"class": "te-tier", "data-tier": tier.name, "data-n": l.idx.length}, svg);
      el("text", {x: 4, y: y + 13, "class": "te-tname"}, g).textContent = tier.name;
      l.idx.forEach(function (i, j) {
        var label = tier.label[i], yy = y + l.lanes[j] * ROW, item;
        if (tier.points) {
          var px = x(tier.start[i]);
          item = el("line", {x1: px, x2: px, y1: yy + 1, y2: yy + ROW - 1, stroke: colour(tier, label, i),
                             "stroke-width": 2.5, "class": "te-item"}, g);
          el("title", {}, item).textContent = label + "  " + tier.start[i] + " s";
          return;
        }
        var a = Math.max(x(tier.start[i]), NAME), b = Math.min(x(tier.end[i]), W - 8);
        item = el("rect", {x: a, y: yy + 1, width: Math.max(b - a, 0.8), height: ROW - 2,
                           fill: colour(tier, label, i), stroke: "#8a949e", "stroke-width": 0.4, "class": "te-item"}, g);
        el("title", {}, item).textContent = label + "  " + tier.start[i] + " - " + tier.end[i] + " s";
        if (label && (b - a) > 6.2 * label.length + 4)
          el("text", {x: (a + b) / 2, y: yy + 13, "text-anchor": "middle", "class": "te-lab"}, g).textContent = label;
      });
      y += l.n * ROW + 6;
    });
    box.innerHTML = "";
    box.appendChild(svg);
    return svg;
  }

  function legend(box, rec) {
    var seen = {}, parts = [];
    rec.tiers.forEach(function (tier) {
      if (tier.colour === "class") seen["class"] = "one colour per class of the system";
      else if (tier.colour === "status") tier.label.forEach(function (l) { seen[l] = l; });
      else if (tier.colour === "segment") seen.segment = "segment of the system";
      else if (tier.colour !== "gold") seen[tier.colour] = tier.colour;
    });
    Object.keys(seen).forEach(function (k) {
      var c = k === "class" ? "linear-gradient(90deg,#f4a6a6,#a6d4f4,#b7f4a6)" : (STATUS[k] || "#9aa4ad");
      parts.push('<span><i style="background:' + c + '"></i>' + seen[k] + "</span>");
    });
    box.innerHTML = parts.join("");
  }

  /* a tier as the page stores it (termeval/report/timeline.py encoded): starts as tick deltas,
     durations in ticks, labels as indexes into its names */
  function decode(tier, tick) {
    var t = 0, n = tier.t.length, start = new Array(n), label = new Array(n), end = tier.points ? null : new Array(n);
    for (var i = 0; i < n; i++) {
      t += tier.t[i];
      start[i] = +(t * tick).toFixed(6);
      if (end) end[i] = +((t + tier.d[i]) * tick).toFixed(6);
      label[i] = tier.names[tier.k[i]];
    }
    return {name: tier.name, colour: tier.colour, points: tier.points, start: start, end: end, label: label};
  }

  function timeline(div) {
    var data = JSON.parse(div.querySelector("script.te-tl-data").textContent), recs = data.recordings;
    recs.forEach(function (r) { r.tiers = r.tiers.map(function (t) { return decode(t, data.tick); }); });
    if (!recs.length) return null;
    var controls = document.createElement("div"), view = document.createElement("div"),
        leg = document.createElement("div");
    controls.className = "te-tl-controls"; view.className = "te-tl-view"; leg.className = "te-tl-legend";
    var sel = document.createElement("select"), from = document.createElement("input"),
        to = document.createElement("input");
    sel.className = "te-tl-file"; from.className = "te-tl-from"; to.className = "te-tl-to";
    recs.forEach(function (r, i) {
      var o = document.createElement("option");
      o.value = i; o.textContent = r.name + (r.cut !== undefined ? " (to " + r.cut + " s)" : "");
      sel.appendChild(o);
    });
    [from, to].forEach(function (inp) { inp.type = "number"; inp.step = "any"; });
    function label(text, input) {
      var l = document.createElement("label");
      l.textContent = text + " "; l.appendChild(input); controls.appendChild(l);
    }
    label("recording", sel); label("from (s)", from); label("to (s)", to);
    function button(text, fn) {
      var b = document.createElement("button");
      b.type = "button"; b.textContent = text; b.addEventListener("click", fn); controls.appendChild(b);
    }
    function end(r) { return r.cut !== undefined ? r.cut : r.end; }
    function show(i, a, b) {
      var r = recs[i];
      a = Math.max(r.start, isFinite(a) ? a : r.start);
      b = Math.min(end(r), isFinite(b) ? b : Math.min(end(r), r.start + 20));
      if (!(b > a)) b = Math.min(end(r), a + 1);
      if (!(b > a)) { a = r.start; b = end(r); }
      sel.value = i; from.value = +a.toFixed(4); to.value = +b.toFixed(4);
      draw(view, r, a, b); legend(leg, r);
    }
    function current() { return [Number(sel.value), Number(from.value), Number(to.value)]; }
    function shift(f) { var c = current(), w = c[2] - c[1]; show(c[0], c[1] + f * w, c[2] + f * w); }
    function zoom(f) { var c = current(), m = (c[1] + c[2]) / 2, w = (c[2] - c[1]) * f / 2; show(c[0], m - w, m + w); }
    button("\u25C0", function () { shift(-0.8); });
    button("\u25B6", function () { shift(0.8); });
    button("zoom in", function () { zoom(0.5); });
    button("zoom out", function () { zoom(2); });
    button("whole", function () { var c = current(); show(c[0], recs[c[0]].start, end(recs[c[0]])); });
    sel.addEventListener("change", function () { show(Number(sel.value), NaN, NaN); });
    [from, to].forEach(function (inp) {
      inp.addEventListener("change", function () { var c = current(); show(c[0], c[1], c[2]); });
    });
    div.appendChild(controls); div.appendChild(view); div.appendChild(leg);
    show(0, NaN, NaN);
    return {show: function (name, a, b) {
      for (var i = 0; i < recs.length; i++) if (recs[i].name === name) { show(i, a, b); return view.firstChild; }
      return null;
    }, recordings: recs};
  }

  var timelines = {};
  document.querySelectorAll("table.te-data").forEach(sortable);
  document.querySelectorAll("input.te-filter").forEach(filterable);
  document.querySelectorAll("div.te-timeline").forEach(function (div) {
    var sec = div.closest("section"), t = timeline(div);
    if (t) timelines[sec ? sec.id.replace(/^sec-/, "") : ""] = t;
  });
  /* what a test or a script drives: termevalTimeline.show("zrc2020", "s01-r01", 0, 10) */
  window.termevalTimeline = {
    show: function (section, name, a, b) { var t = timelines[section]; return t ? t.show(name, a, b) : null; },
    sections: function () { return Object.keys(timelines); }
  };
})();
