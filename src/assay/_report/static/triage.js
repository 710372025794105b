/* assay's item table: filter, sort, search and page the rows a report embeds.
   It mirrors assay._report.triage.select rule for rule. Every value reaches the page as text
   (textContent, never HTML), so nothing in the data can become markup. */
(function () {
  "use strict";

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }

  function fmt(v, dec, sign) {
    if (v === null || v === undefined) { return "\u2014"; }
    var t = v.toFixed(dec);
    return sign && v >= 0 ? "+" + t : t;
  }

  function delta(row, k) {
    if (row.scores.length < 2) { return null; }
    var c = row.scores[0][k], b = row.scores[1][k];
    if (c === null || b === null) { return null; }
    return Math.round((c - b) * 1e6) / 1e6;
  }

  function outcome(row, k, hib) {
    var d = delta(row, k);
    if (d === null) { return ""; }
    if (d === 0) { return "tie"; }
    return (d > 0) === hib ? "candidate" : "baseline";
  }

  function statusOk(row, status) {
    if (!status) { return true; }
    if (status === "ok") { return row.status.every(function (s) { return s === "ok"; }); }
    return row.status.indexOf(status) >= 0;
  }

  function value(data, row, k) {
    if (!data.keys.length) { return null; }
    return row.scores.length === 1 ? row.scores[0][k] : delta(row, k);
  }

  function matches(data, row, q, k) {
    if (!statusOk(row, q.status)) { return false; }
    if (q.outcome && data.mode === "pair") {
      var got = data.keys.length ? outcome(row, k, data.keys[k].hib) : "";
      if (q.outcome === "moved") {
        if (got !== "candidate" && got !== "baseline") { return false; }
      } else if (got !== q.outcome) { return false; }
    }
    if (q.part && row.parts.indexOf(data.parts.indexOf(q.part)) < 0) { return false; }
    if (q.cluster && (row.cluster === null || data.clusters[row.cluster] !== q.cluster)) {
      return false;
    }
    if (q.lo !== null || q.hi !== null) {
      var v = value(data, row, k);
      if (v === null) { return false; }
      if (q.lo !== null && v < q.lo) { return false; }
      if (q.hi !== null && v > q.hi) { return false; }
    }
    if (q.q) {
      var needle = q.q.toLowerCase();
      var hay = [row.id, row.gold, row.source].concat(row.preds);
      if (!hay.some(function (h) { return h.toLowerCase().indexOf(needle) >= 0; })) {
        return false;
      }
    }
    return true;
  }

  function cmp(a, b) { return a < b ? -1 : a > b ? 1 : 0; }

  function cmpTuple(a, b) {
    for (var i = 0; i < a.length; i++) {
      var c = cmp(a[i], b[i]);
      if (c) { return c; }
    }
    return 0;
  }

  function defaultKey(data, k) {
    if (data.mode === "run") {
      var sign = !data.keys.length || data.keys[k].hib ? 1 : -1;
      return function (r) {
        if (r.status[0] !== "ok") { return [0, 0, r.order]; }
        var v = data.keys.length ? r.scores[0][k] : null;
        return v === null ? [2, 0, r.order] : [1, sign * v, r.order];
      };
    }
    return function (r) {
      var d = data.keys.length ? delta(r, k) : null;
      return [d === null ? 1 : -Math.abs(d), r.status[0] !== r.status[1] ? 0 : 1, r.order];
    };
  }

  function select(data, q) {
    var k = 0;
    if (q.metric) {
      k = data.keys.findIndex(function (x) { return x.key === q.metric; });
      if (k < 0) { k = 0; }
    }
    var rows = data.rowsById.filter(function (r) { return matches(data, r, q, k); });
    if (!q.sort) {
      var key = defaultKey(data, k);
      var keyed = rows.map(function (r) { return [key(r), r]; });
      keyed.sort(function (a, b) { return cmpTuple(a[0], b[0]); });
      rows = keyed.map(function (t) { return t[1]; });
      return { rows: q.desc ? rows.reverse() : rows, k: k };
    }
    if (q.sort === "id") { return { rows: q.desc ? rows.reverse() : rows, k: k }; }
    if (q.sort === "status") {
      rows.sort(function (a, b) {
        var c = cmpTuple(a.status, b.status);
        return q.desc ? -c : c;
      });
      return { rows: rows, k: k };
    }
    var side = q.sort === "candidate" ? 0 : q.sort === "baseline" ? 1 : -1;
    var val = function (r) {
      if (!data.keys.length) { return null; }
      if (side >= 0) { return side < r.scores.length ? r.scores[side][k] : null; }
      return value(data, r, k);
    };
    var defined = rows.filter(function (r) { return val(r) !== null; });
    defined.sort(function (a, b) {
      var c = cmp(val(a), val(b));
      return q.desc ? -c : c;
    });
    return { rows: defined.concat(rows.filter(function (r) { return val(r) === null; })), k: k };
  }

  function readQuery(form) {
    function get(name) {
      var f = form.elements.namedItem(name);
      return f && f.value ? String(f.value).trim() : "";
    }
    function num(name) {
      var raw = get(name);
      if (!raw) { return null; }
      var v = Number(raw);
      return isFinite(v) ? v : null;
    }
    return {
      status: get("status"), outcome: get("outcome"), metric: get("metric"), part: get("part"),
      cluster: get("cluster"), q: get("q"), lo: num("lo"), hi: num("hi"), sort: get("sort"),
      desc: get("desc") === "1", page: 0
    };
  }

  function setField(form, name, v) {
    var f = form.elements.namedItem(name);
    if (f) { f.value = v; }
  }

  function pre(label, text) {
    var div = el("div");
    div.appendChild(el("strong", null, label));
    div.appendChild(el("pre", null, text || "\u2014"));
    return div;
  }

  function detail(data, row) {
    var box = el("div", "why");
    if (row.source) { box.appendChild(pre("source", row.source)); }
    box.appendChild(pre("gold", row.gold));
    if (data.mode === "pair") {
      box.appendChild(pre("candidate (" + data.names[0] + ")", row.preds[0]));
      box.appendChild(pre("baseline (" + data.names[1] + ")", row.preds[1]));
    } else {
      box.appendChild(pre("prediction", row.preds[0]));
    }
    if (row.why.length) {
      box.appendChild(el("strong", null, data.mode === "pair"
        ? data.partLabel + "s scored differently" : data.partLabel + "s that lost points"));
      var ul = el("ul", "parts");
      row.why.forEach(function (w) { ul.appendChild(el("li", null, w)); });
      box.appendChild(ul);
    }
    if (row.error) { box.appendChild(el("p", "neg", row.error)); }
    var scores = data.keys.map(function (key, i) {
      var s = key.key + " " + fmt(row.scores[0][i], key.dec, false);
      if (row.scores.length > 1) { s += " \u2192 " + fmt(row.scores[1][i], key.dec, false); }
      return s;
    });
    if (scores.length) {
      box.appendChild(el("p", "muted small", (data.mode === "pair"
        ? "candidate \u2192 baseline: " : "") + scores.join(" \u00b7 ")));
    }
    return box;
  }

  function textCell(text) {
    var td = el("td", "text");
    td.appendChild(el("div", "clip", text || "\u2014"));
    return td;
  }

  function renderRow(data, row, k) {
    var tr = el("tr");
    tr.setAttribute("data-id", row.id);
    var td = el("td", "item");
    var det = el("details");
    var sum = el("summary");
    sum.appendChild(el("code", null, row.id));
    det.appendChild(sum);
    det.appendChild(detail(data, row));
    td.appendChild(det);
    tr.appendChild(td);
    tr.appendChild(el("td", "status", row.status.join(" / ")));
    var key = data.keys[k];
    if (data.mode === "pair") {
      tr.appendChild(el("td", "num", key ? fmt(row.scores[0][k], key.dec, false) : "\u2014"));
      tr.appendChild(el("td", "num", key ? fmt(row.scores[1][k], key.dec, false) : "\u2014"));
      tr.appendChild(el("td", "num", key ? fmt(delta(row, k), key.dec, true) : "\u2014"));
      var o = key ? outcome(row, k, key.hib) : "";
      tr.appendChild(el("td", "better " + (o || "none"), o || "\u2014"));
      tr.appendChild(textCell(row.gold));
      tr.appendChild(textCell(row.preds[0]));
      tr.appendChild(textCell(row.preds[1]));
    } else {
      tr.appendChild(el("td", "num", key ? fmt(row.scores[0][k], key.dec, false) : "\u2014"));
      tr.appendChild(textCell(row.gold));
      tr.appendChild(textCell(row.preds[0]));
    }
    if (row.status.some(function (s) { return s !== "ok"; })) { tr.className = "not-ok"; }
    return tr;
  }

  /* An opened item shows its gold, answers and parts in a row of its own, as wide as the
     table (without this script they open inside the item's cell). */
  function widenDetails(section) {
    section.classList.add("live");
    section.addEventListener("toggle", function (ev) {
      var det = ev.target;
      if (!det.matches || !det.matches("td.item > details")) { return; }
      var tr = det.closest("tr");
      var why = det.querySelector(".why") || (tr.nextElementSibling &&
        tr.nextElementSibling.classList.contains("detail-row") &&
        tr.nextElementSibling.querySelector(".why"));
      if (!why) { return; }
      if (det.open) {
        var row = el("tr", "detail-row");
        var td = el("td");
        td.colSpan = tr.children.length;
        td.appendChild(why);
        row.appendChild(td);
        tr.after(row);
      } else if (tr.nextElementSibling && tr.nextElementSibling.classList.contains("detail-row")) {
        det.appendChild(why);
        tr.nextElementSibling.remove();
      }
    }, true);
  }

  function setup(section) {
    widenDetails(section);
    var script = section.querySelector("script.triage-data");
    if (!script) { return; }
    var data = JSON.parse(script.textContent);
    data.rowsById = data.rows.map(function (a) {
      var r = {};
      data.fields.forEach(function (name, i) { r[name] = a[i]; });
      return r;
    }).sort(function (a, b) { return a.order - b.order; });
    var form = section.querySelector("form.triage-filters");
    var tbody = section.querySelector("table.items-table tbody");
    var count = section.querySelector("[data-count]");
    var pager = section.querySelector("[data-pager]");
    var page = 0;
    form.hidden = false;

    function render() {
      var q = readQuery(form);
      var got = select(data, q);
      var n = got.rows.length;
      var pages = Math.max(1, Math.ceil(n / data.pageSize));
      if (page >= pages) { page = pages - 1; }
      var start = page * data.pageSize;
      var shown = got.rows.slice(start, start + data.pageSize);
      tbody.replaceChildren.apply(tbody, shown.map(function (r) { return renderRow(data, r, got.k); }));
      var key = data.keys[got.k];
      section.querySelectorAll("[data-value-head]").forEach(function (h) {
        h.textContent = (key ? key.key : "score") + (key && !key.hib ? " \u2193" : "");
      });
      var total = data.rows.length;
      var what = n ? "items " + (start + 1) + "\u2013" + (start + shown.length) + " of " + n +
        " matching" : "no item matches";
      count.textContent = what + " (of " + total + (data.total > total
        ? " embedded; the run has " + data.total + ")" : ")");
      count.setAttribute("data-matched", String(n));
      pager.replaceChildren();
      var prev = el("button", null, "\u2190 previous");
      prev.type = "button";
      prev.disabled = page === 0;
      prev.addEventListener("click", function () { page -= 1; render(); });
      var next = el("button", null, "next \u2192");
      next.type = "button";
      next.disabled = page + 1 >= pages;
      next.addEventListener("click", function () { page += 1; render(); });
      pager.appendChild(prev);
      pager.appendChild(el("span", "muted small", " page " + (page + 1) + " of " + pages + " "));
      pager.appendChild(next);
      section.querySelectorAll("[data-sort]").forEach(function (h) {
        var on = h.getAttribute("data-sort") === q.sort;
        h.setAttribute("aria-sort", on ? (q.desc ? "descending" : "ascending") : "none");
      });
    }

    form.addEventListener("submit", function (ev) { ev.preventDefault(); page = 0; render(); });
    /* a choice re-draws the table at once; so does typing (search, from, to), and leaving a
       typed field does not re-draw it again (the row a user clicks next stays there) */
    form.addEventListener("change", function (ev) {
      if (ev.target && ev.target.tagName === "SELECT") { page = 0; render(); }
    });
    form.addEventListener("input", function (ev) {
      if (ev.target && ev.target.tagName === "INPUT") { page = 0; render(); }
    });
    section.querySelectorAll("[data-sort]").forEach(function (h) {
      h.addEventListener("click", function (ev) {
        ev.preventDefault();
        var s = h.getAttribute("data-sort");
        var q = readQuery(form);
        setField(form, "desc", q.sort === s && !q.desc ? "1" : "");
        setField(form, "sort", s);
        page = 0;
        render();
      });
    });
    document.querySelectorAll("[data-triage='" + section.id + "']").forEach(function (a) {
      a.addEventListener("click", function (ev) {
        ev.preventDefault();
        form.reset();
        ["outcome", "metric", "cluster", "status", "part"].forEach(function (name) {
          var v = a.getAttribute("data-" + name);
          if (v !== null) { setField(form, name, v); }
        });
        setField(form, "sort", "");
        setField(form, "desc", "");
        page = 0;
        render();
        section.scrollIntoView();
      });
    });
    render();
  }

  document.querySelectorAll("section.triage").forEach(setup);
})();
