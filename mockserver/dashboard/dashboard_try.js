// The dashboard's helpers for people building screens: worlds, logins that copy a token,
// try-it forms of the 24 operations, copy as curl / fetch, and snapshots.
(function () {
  "use strict";
  var d = window.mockDashboard, $ = d.$;
  var world = document.body.getAttribute("data-world");

  // copyText puts text on the clipboard where the browser allows it, and always in #copy-out.
  function copyText(text, what) {
    $("copy-out").value = text;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { d.say(what + " copied."); }, function () { d.say(what + " is in the Copied box."); });
    } else {
      d.say(what + " is in the Copied box.");
    }
  }

  function shellQuote(s) { return "'" + String(s).replace(/'/g, "'\\''") + "'"; }

  function apiURL(path) { return location.origin + d.prefix + path; }

  // request rebuilds a journal entry's request: URL, headers worth sending, body text.
  function request(e) {
    var headers = {};
    Object.keys(e.request.headers || {}).forEach(function (k) {
      var lk = k.toLowerCase();
      if (lk === "content-type" || lk === "accept" || lk === "prefer") { headers[k] = e.request.headers[k]; }
      if (lk === "authorization") { headers[k] = "Bearer " + ($("token-out").value || "$TOKEN"); }
    });
    var body = e.request.body;
    var text = body === null || body === undefined ? "" : (typeof body === "string" ? body : JSON.stringify(body));
    return { url: apiURL(e.path), headers: headers, body: text, placeholder: !$("token-out").value };
  }

  d.copyAs = function (kind, e) {
    var r = request(e);
    var text;
    if (kind === "curl") {
      // A method is whatever token the client sent (the journal keeps it): quoted unless plain.
      text = "curl -s -X " + (/^[A-Z]+$/.test(e.method) ? e.method : shellQuote(e.method)) + " " + shellQuote(r.url);
      Object.keys(r.headers).forEach(function (k) {
        // No token logged in here: $TOKEN stays for the shell to expand, so it is double-quoted.
        if (k.toLowerCase() === "authorization" && r.placeholder) { text += ' -H "Authorization: Bearer $TOKEN"'; return; }
        text += " -H " + shellQuote(k + ": " + r.headers[k]);
      });
      if (r.body) { text += " --data-raw " + shellQuote(r.body); } // -d would read a body starting with @ as a file name
    } else {
      text = "await fetch(" + JSON.stringify(r.url) + ", " + JSON.stringify({ method: e.method, headers: r.headers, body: r.body || undefined }, null, 2) + ").then(r => r.json())";
    }
    copyText(text, kind === "curl" ? "curl command" : "fetch call");
  };

  function login(role) {
    d.api("GET", "/__mock/fixtures").then(function (m) {
      var c = m.users[role];
      return d.api("POST", "/v1/authenticate", { email: c.email, password: c.password });
    }).then(function (res) {
      $("token-out").value = res.data.token;
      copyText(res.data.token, "The " + role + "'s token");
    }).catch(function (err) { d.say(err.message, true); });
  }
  // One button per user of the fixture manifest: the member's teammate and the outsider (a
  // user of another project) too, to try what they may and may not do.
  Array.prototype.forEach.call(document.querySelectorAll("#login-form button[data-role]"), function (b) {
    b.addEventListener("click", function () { login(b.getAttribute("data-role")); });
  });

  // try-it: send the edited body with the token; show the status and the answer.
  Array.prototype.forEach.call(document.querySelectorAll("button.try"), function (b) {
    b.addEventListener("click", function () {
      var op = b.getAttribute("data-op"), out = $("try-out-" + op);
      var path = $("op-" + op).getAttribute("data-path");
      var headers = { "Content-Type": "application/json", "Accept": "application/json" };
      if ($("token-out").value) { headers.Authorization = "Bearer " + $("token-out").value; }
      fetch(d.prefix + path, { method: "POST", headers: headers, body: $("try-body-" + op).value })
        .then(function (res) {
          return res.text().then(function (t) {
            var shown = t;
            try { shown = JSON.stringify(JSON.parse(t), null, 2); } catch (e) { /* not JSON: as is */ }
            out.textContent = res.status + " " + res.statusText + "\n" + shown;
            d.refresh();
          });
        }).catch(function (err) { out.textContent = String(err); });
    });
  });

  // worlds: the select lists every world; opening one loads its dashboard.
  function open(name) {
    location.href = (name === "default" ? "" : "/__worlds/" + encodeURIComponent(name)) + "/__mock/";
  }
  d.api("GET", "/__mock/worlds", undefined, true).then(function (res) {
    var sel = $("world-select");
    sel.textContent = "";
    res.worlds.forEach(function (w) {
      var o = document.createElement("option");
      o.value = w.name;
      var mib = (w.records_bytes / 1048576).toFixed(1) + " MiB of " + (res.max_state_bytes / 1048576).toFixed(0);
      o.textContent = w.name + " (" + w.scenario + ", " + w.requests + " requests, " + mib + ")";
      o.selected = w.name === world;
      sel.appendChild(o);
    });
  }).catch(function () {});
  $("world-select").addEventListener("change", function () { open($("world-select").value); });
  $("world-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var named = $("world-new"); // left out where named worlds are off
    open((named && named.value.trim()) || $("world-select").value);
  });
  $("base-url").textContent = location.origin + d.prefix;

  // snapshots: save downloads GET /__mock/state; load PUTs a chosen file.
  $("snapshot-save").addEventListener("click", function () {
    d.api("GET", "/__mock/state").then(function (st) {
      var a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob([JSON.stringify(st)], { type: "application/json" }));
      a.download = "mock-" + world + "-state.json";
      document.body.appendChild(a);
      a.click();
      a.remove();
      d.say("Snapshot saved.");
    }).catch(function (err) { d.say(err.message, true); });
  });
  // flows: download GET /__mock/flow, the calls since the last reset as a replayable flow.
  $("flow-download").addEventListener("click", function () {
    d.api("GET", "/__mock/flow").then(function (fl) {
      var a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob([JSON.stringify(fl, null, 2)], { type: "application/json" }));
      a.download = "flow-" + world + ".json";
      document.body.appendChild(a);
      a.click();
      a.remove();
      d.say("Flow of " + fl.steps.length + " steps saved.");
    }).catch(function (err) { d.say(err.message, true); });
  });
  $("snapshot-file").addEventListener("change", function () {
    var f = $("snapshot-file").files[0];
    if (!f) { return; }
    f.text().then(function (text) { return d.api("PUT", "/__mock/state", text); })
      .then(function () { location.reload(); })
      .catch(function (err) { d.say(err.message, true); });
  });
})();
