/* The countdowns of the players to act (games/tables/countdown.py writes them).
 *
 * Each [data-countdown] element holds its deadline (milliseconds since the epoch) and the
 * translated words. The time left is always worked out again from that deadline and the
 * server's clock, never counted by ticks: after the computer slept, or a socket came back,
 * the next paint is right. The server's clock is the browser's, corrected by the offset
 * between the two when the page was made (this script's tag carries the server's time).
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var skew = 0; // server time minus browser time, in milliseconds

  if (script && script.dataset.serverNow) {
    var serverMs = Number(script.dataset.serverNow) * 1000;
    if (isFinite(serverMs) && serverMs > 0) {
      skew = serverMs - Date.now();
    }
  }

  function pad(value) {
    return value < 10 ? "0" + value : String(value);
  }

  function durationText(seconds, patterns) {
    var days = Math.floor(seconds / 86400);
    var hours = Math.floor((seconds % 86400) / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var secs = seconds % 60;
    if (days) {
      return patterns.days.replace("{d}", days).replace("{h}", pad(hours));
    }
    if (hours) {
      return patterns.hours.replace("{h}", hours).replace("{m}", pad(minutes));
    }
    if (minutes) {
      return patterns.minutes.replace("{m}", minutes).replace("{s}", pad(secs));
    }
    return patterns.seconds.replace("{s}", secs);
  }

  function paint(element) {
    var deadline = Number(element.dataset.countdown);
    var patterns;
    try {
      patterns = JSON.parse(element.dataset.patterns);
    } catch (error) {
      return;
    }
    var left = Math.ceil((deadline - (Date.now() + skew)) / 1000);
    var text =
      left > 0
        ? element.dataset.say.replace("{t}", durationText(left, patterns))
        : element.dataset.expired;
    if (element.textContent !== text) {
      element.textContent = text;
    }
    element.classList.toggle("is-urgent", left <= Number(element.dataset.urgent));
    element.classList.toggle("is-expired", left <= 0);
  }

  function paintAll() {
    document.querySelectorAll("[data-countdown]").forEach(paint);
  }

  document.addEventListener("htmx:load", paintAll);
  document.addEventListener("visibilitychange", paintAll);
  window.addEventListener("pageshow", paintAll);
  document.addEventListener("DOMContentLoaded", paintAll);
  setInterval(paintAll, 1000);
})();
