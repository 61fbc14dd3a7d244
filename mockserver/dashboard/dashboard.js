// The dashboard's controls: plain fetch calls to the /__mock/ endpoints of the page's world
// (one world per URL prefix), no build step. dashboard_try.js adds logins, try-it forms, copying and snapshots.
(function () {
  "use strict";
  var params = new URLSearchParams(location.search);
  var token = params.get("token") || sessionStorage.getItem("mockAdminToken") || "";
  if (token) { sessionStorage.setItem("mockAdminToken", token); }
  if (params.has("token")) {
    // The token leaves the address bar (history, screenshots, a shared link): the tab keeps it,
    // and the token prompt sends it again when the page is reloaded.
    params.delete("token");
    var rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
  }
  var prefix = document.body.getAttribute("data-prefix") || "";
  var requests = [];

  function $(id) { return document.getElementById(id); }

  function say(text, isError) {
    var s = $("status");
    s.textContent = text;
    s.className = isError ? "error" : "";
  }

  // api calls a control of the page's world (or, with global, the path as given) and resolves
  // with its JSON answer; an error answer rejects with its message (shape (a) or (b)) or its
  // first field error (shape (c)).
  function api(method, path, body, global) {
    var headers = { "Accept": "application/json" };
    if (token) { headers["X-Mock-Admin-Token"] = token; }
    if (body !== undefined) { headers["Content-Type"] = "application/json"; }
    var raw = typeof body === "string";
    return fetch((global ? "" : prefix) + path, { method: method, headers: headers, body: body === undefined ? undefined : (raw ? body : JSON.stringify(body)) })
      .then(function (res) {
        return res.json().then(function (data) {
          if (!res.ok) {
            var first = data.errors ? Object.keys(data.errors).map(function (k) { return data.errors[k][0]; })[0] : "";
            throw new Error(res.status + ": " + (first || data.message || "failed"));
          }
          return data;
        });
      });
  }

  function cell(tr, text) {
    var td = document.createElement("td");
    td.textContent = text === undefined || text === null ? "" : String(text);
    tr.appendChild(td);
    return td;
  }

  function renderFaults(faults) {
    var body = $("faults").tBodies[0];
    body.textContent = "";
    faults.forEach(function (f) {
      var tr = document.createElement("tr");
      [f.id, f.operation, f.status, f.latency_ms, f.remaining, f.probability].forEach(function (v) { cell(tr, v); });
      body.appendChild(tr);
    });
  }

  // matches tells whether a journal entry passes the page's filters.
  function matches(e) {
    var op = $("journal-operation").value, st = $("journal-status").value.trim().toLowerCase();
    var q = $("journal-search").value.trim().toLowerCase();
    if (op && e.operation !== op) { return false; }
    if (st && !(String(e.status) === st || (st.length === 3 && st.slice(1) === "xx" && String(e.status)[0] === st[0]))) { return false; }
    if (q && (e.path + " " + JSON.stringify(e.request) + " " + JSON.stringify(e.response)).toLowerCase().indexOf(q) < 0) { return false; }
    return true;
  }

  function copyButton(td, label, e) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "copy copy-" + label;
    b.textContent = label;
    b.addEventListener("click", function () { window.mockDashboard.copyAs(label, e); });
    td.appendChild(b);
  }

  function renderJournal() {
    var body = $("journal").tBodies[0];
    body.textContent = "";
    requests.filter(matches).forEach(function (e) {
      var tr = document.createElement("tr");
      tr.className = "s" + String(e.status)[0];
      cell(tr, e.id);
      cell(tr, e.time.slice(11, 19));
      cell(tr, e.method);
      var path = cell(tr, "");
      var details = document.createElement("details");
      var summary = document.createElement("summary");
      summary.textContent = e.path + (e.operation ? " (" + e.operation + ")" : "");
      var pre = document.createElement("pre");
      pre.textContent = JSON.stringify({ request: e.request, response: e.response }, null, 2);
      details.appendChild(summary);
      details.appendChild(pre);
      path.appendChild(details);
      cell(tr, e.status);
      cell(tr, e.duration_ms.toFixed(1));
      var copy = cell(tr, "");
      copyButton(copy, "curl", e);
      copyButton(copy, "fetch", e);
      body.appendChild(tr);
    });
  }

  var poll;
  function refresh() {
    api("GET", "/__mock/requests?limit=200").then(function (d) {
      requests = d.requests; renderJournal();
      // Read only once the journal says the world is there: the clock's read makes a world,
      // and a tab left open brought back a world deleted meanwhile (pushing out another).
      api("GET", "/__mock/clock").then(function (d) { $("clock-now").textContent = d.now + (d.frozen ? " (frozen)" : ""); }).catch(function () {});
      api("GET", "/__mock/faults").then(function (d) { renderFaults(d.faults); }).catch(function () {});
    }).catch(function (err) {
      if (/^404:/.test(err.message)) {
        clearInterval(poll);
        say(err.message + " This page stopped reading it; reload the page to make the world again.", true);
        return;
      }
      say(err.message, true);
    });
  }

  function numberOf(id) {
    var v = $(id).value;
    return v === "" ? undefined : Number(v);
  }

  function clock(body, what, method) {
    api(method || "POST", "/__mock/clock", body)
      .then(function (d) { $("clock-now").textContent = d.now + (d.frozen ? " (frozen)" : ""); say(what + " " + d.now + "."); })
      .catch(function (err) { say(err.message, true); });
  }

  $("reset-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var body = JSON.stringify({ scenario: $("reset-scenario").value });
    var seed = $("reset-seed").value.trim();
    if (/^-?[0-9]+$/.test(seed)) {
      // The digits as typed: a number past 2^53 would lose its last digits in a JS number, and
      // the world of another seed come back; as typed, the mock refuses it, saying the range.
      body = body.slice(0, -1) + ',"seed":' + seed + "}";
    } else if (seed !== "") {
      body = JSON.stringify({ scenario: $("reset-scenario").value, seed: Number(seed) });
    }
    api("POST", "/__mock/reset", body)
      .then(function () { location.reload(); })
      .catch(function (err) { say(err.message, true); });
  });

  $("clock-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    clock({ advance_seconds: numberOf("advance-seconds") }, "Clock advanced to");
  });
  $("clock-set-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    clock({ set: $("clock-set").value.trim() }, "Clock set to");
  });
  $("clock-freeze").addEventListener("click", function () { clock({ freeze: true }, "Clock frozen at"); });
  $("clock-unfreeze").addEventListener("click", function () { clock({ freeze: false }, "Clock running from"); });
  $("clock-system").addEventListener("click", function () { clock(undefined, "Clock back on the system time,", "DELETE"); });

  $("fault-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var rule = { operation: $("fault-operation").value };
    [["status", "fault-status"], ["latency_ms", "fault-latency"], ["times", "fault-times"], ["probability", "fault-probability"]]
      .forEach(function (p) { var v = numberOf(p[1]); if (v !== undefined) { rule[p[0]] = v; } });
    api("POST", "/__mock/faults", rule)
      .then(function (r) { say("Fault rule " + r.id + " added."); refresh(); })
      .catch(function (err) { say(err.message, true); });
  });

  $("force-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var op = $("force-operation").value;
    api("POST", "/__mock/faults", { operation: op, status: numberOf("force-status"), times: 1 })
      .then(function (r) { say("The next " + op + " call answers " + r.status + "."); refresh(); })
      .catch(function (err) { say(err.message, true); });
  });

  $("faults-clear").addEventListener("click", function () {
    api("DELETE", "/__mock/faults").then(function () { say("Fault rules cleared."); refresh(); })
      .catch(function (err) { say(err.message, true); });
  });

  $("journal-clear").addEventListener("click", function () {
    api("DELETE", "/__mock/requests").then(function () { say("Journal cleared."); refresh(); })
      .catch(function (err) { say(err.message, true); });
  });
  ["journal-operation", "journal-status", "journal-search"].forEach(function (id) {
    $(id).addEventListener("input", renderJournal);
  });

  window.mockDashboard = { api: api, say: say, prefix: prefix, refresh: refresh, $: $ };
  refresh();
  poll = setInterval(refresh, 2000);
})();
