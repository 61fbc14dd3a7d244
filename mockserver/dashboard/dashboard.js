// The dashboard's controls: plain fetch calls to the /__mock/ endpoints, no build step.
(function () {
  "use strict";
  var params = new URLSearchParams(location.search);
  var token = params.get("token") || sessionStorage.getItem("mockAdminToken") || "";
  if (token) { sessionStorage.setItem("mockAdminToken", token); }

  function $(id) { return document.getElementById(id); }

  function say(text, isError) {
    var s = $("status");
    s.textContent = text;
    s.className = isError ? "error" : "";
  }

  // api calls a control and resolves with its JSON answer; an error answer rejects with its
  // message (shape (a) or (b)) or its first field error (shape (c)).
  function api(method, path, body) {
    var headers = { "Accept": "application/json" };
    if (token) { headers["X-Mock-Admin-Token"] = token; }
    if (body !== undefined) { headers["Content-Type"] = "application/json"; }
    return fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) })
      .then(function (res) {
        return res.json().then(function (data) {
          if (!res.ok) { throw new Error(res.status + ": " + (data.message || "failed")); }
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

  function renderJournal(requests) {
    var body = $("journal").tBodies[0];
    body.textContent = "";
    requests.forEach(function (e) {
      var tr = document.createElement("tr");
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
      body.appendChild(tr);
    });
  }

  function refresh() {
    api("GET", "/__mock/requests?limit=50").then(function (d) { renderJournal(d.requests); }).catch(function (err) { say(err.message, true); });
    api("GET", "/__mock/clock").then(function (d) { $("clock-now").textContent = d.now; }).catch(function () {});
    api("GET", "/__mock/faults").then(function (d) { renderFaults(d.faults); }).catch(function () {});
  }

  function numberOf(id) {
    var v = $(id).value;
    return v === "" ? undefined : Number(v);
  }

  $("reset-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var seed = numberOf("reset-seed");
    api("POST", "/__mock/reset", seed === undefined ? {} : { seed: seed })
      .then(function () { location.reload(); })
      .catch(function (err) { say(err.message, true); });
  });

  $("clock-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    api("POST", "/__mock/clock", { advance_seconds: numberOf("advance-seconds") })
      .then(function (d) { $("clock-now").textContent = d.now; say("Clock advanced to " + d.now + "."); })
      .catch(function (err) { say(err.message, true); });
  });

  $("fault-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var rule = { operation: $("fault-operation").value };
    [["status", "fault-status"], ["latency_ms", "fault-latency"], ["times", "fault-times"], ["probability", "fault-probability"]]
      .forEach(function (p) { var v = numberOf(p[1]); if (v !== undefined) { rule[p[0]] = v; } });
    api("POST", "/__mock/faults", rule)
      .then(function (r) { say("Fault rule " + r.id + " added."); refresh(); })
      .catch(function (err) { say(err.message, true); });
  });

  $("faults-clear").addEventListener("click", function () {
    api("DELETE", "/__mock/faults").then(function () { say("Fault rules cleared."); refresh(); })
      .catch(function (err) { say(err.message, true); });
  });

  setInterval(refresh, 2000);
})();
