// Kingmaker: small helpers for the server-rendered pages. No rules here: the server
// says where a unit may go (the panel and the map overlay come from it).
(function () {
  "use strict";

  function localTimes(root) {
    root.querySelectorAll("time.utc[datetime]:not([data-local])").forEach(function (el) {
      var d = new Date(el.getAttribute("datetime"));
      if (isNaN(d.getTime())) { return; }
      var span = document.createElement("span");
      span.className = "local-time";
      span.textContent = " (your time: " + d.toLocaleString(undefined, {
        weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"
      }) + ")";
      el.setAttribute("data-local", "1");
      el.after(span);
    });
  }

  function showDetails(el) {
    var panel = document.getElementById("details");
    if (!panel || !el) { return; }
    var title = el.querySelector("title");
    panel.innerHTML = "";
    var h = document.createElement("h2");
    h.textContent = title ? title.textContent : "Details";
    var p = document.createElement("p");
    p.textContent = el.getAttribute("data-details") || "";
    panel.appendChild(h);
    panel.appendChild(p);
  }

  function ask(url) {
    if (window.htmx && url) {
      window.htmx.ajax("GET", url, { target: "#order-panel", swap: "outerHTML" });
    } else if (url) {
      window.location.href = url;
    }
  }

  function activate(target) {
    var dest = target.closest("#map-overlay .dest");
    if (dest) { ask(dest.getAttribute("data-url")); return true; }
    var unit = target.closest("g.selectable[data-unit]");
    var wrap = target.closest(".map-wrap");
    if (unit && wrap && wrap.getAttribute("data-panel-url")) {
      showDetails(unit);
      ask(wrap.getAttribute("data-panel-url") + encodeURIComponent(unit.getAttribute("data-unit")));
      return true;
    }
    var info = target.closest("[data-details]");
    if (info && target.closest(".map-wrap")) { showDetails(info); return true; }
    return false;
  }

  document.addEventListener("click", function (ev) { activate(ev.target); });
  document.addEventListener("keydown", function (ev) {
    if ((ev.key === "Enter" || ev.key === " ") && ev.target.closest && ev.target.closest(".map-wrap")) {
      if (activate(ev.target)) { ev.preventDefault(); }
    }
  });
  document.addEventListener("mouseover", function (ev) {
    var info = ev.target.closest && ev.target.closest(".map-wrap [data-details]");
    if (info) { showDetails(info); }
  });
  document.addEventListener("focusin", function (ev) {
    var info = ev.target.closest && ev.target.closest(".map-wrap [data-details]");
    if (info) { showDetails(info); }
    if (ev.target.matches && ev.target.matches("textarea.copy, input.copy")) { ev.target.select(); }
  });
  document.addEventListener("htmx:beforeRequest", function () {
    var box = document.getElementById("htmx-errors");
    if (box) { box.innerHTML = ""; }
  });
  document.addEventListener("DOMContentLoaded", function () { localTimes(document); });
  document.addEventListener("htmx:afterSettle", function (ev) { localTimes(document); });
})();
