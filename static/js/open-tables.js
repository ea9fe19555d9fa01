/* The live list of open tables (loaded by templates/games/open_tables.html only, after
 * static/js/site.js).
 *
 * The list (#open-tables) carries data-ws-url and data-fragment-url (the list with the
 * filters chosen). Its socket (games/live/open_tables.py) only says that the list changed,
 * never what: the page then fetches its own list with htmx, once for a burst of changes
 * (CHANGE_DELAY_MS after the last). The socket reconnects with a growing delay and the
 * page fetches the list again on every reconnect (it may have missed changes meanwhile)
 * and when the tab becomes visible again. While the socket is down, the list is fetched
 * every POLL_MS instead. Closed for good (not logged in, too many pages of this user
 * open: close codes in the script's data-* attributes), it says so and polls no more.
 * A refetch waits while the user's own request (a seat, a filter) is in flight. A refused
 * seat's notice sits outside the list, in #open-tables-notice (out of band): the refetch
 * leaves it, the user's next request clears it.
 * Without JavaScript the page still works: the filters and the seats are plain forms.
 */
(function () {
  "use strict";

  var given = document.currentScript ? document.currentScript.dataset : {};
  var HEARTBEAT_MS = Number(given.heartbeatMs) || 30000;
  var CHANGE_DELAY_MS = 300;
  var POLL_MS = 20000;
  var MAX_DELAY_MS = 30000;
  var CLOSED_FOR_GOOD = {};
  CLOSED_FOR_GOOD[given.closedSession] = "session";
  CLOSED_FOR_GOOD[given.closedTabs] = "tabs";
  var status = window.beloteStatus;

  var socket = null;
  var attempts = 0;
  var connectedOnce = false;
  var stopped = false;
  var retryTimer = null;
  var heartbeatTimer = null;
  var pollTimer = null;
  var changeTimer = null;
  var loading = false;
  var again = false;
  var pending = 0; // the user's own htmx requests in flight

  function list() {
    return document.getElementById("open-tables");
  }

  function refresh() {
    var root = list();
    if (!root || !window.htmx) {
      return;
    }
    if (loading || pending) {
      again = true;
      return;
    }
    loading = true;
    var done = function () {
      loading = false;
      if (again) {
        again = false;
        refresh();
      }
    };
    htmx
      .ajax("GET", root.dataset.fragmentUrl, { target: "#open-tables", swap: "outerHTML" })
      .then(done, done);
  }

  function changed() {
    clearTimeout(changeTimer);
    changeTimer = setTimeout(refresh, CHANGE_DELAY_MS);
  }

  function startPolling() {
    if (!pollTimer && !stopped) {
      pollTimer = setInterval(refresh, POLL_MS);
    }
  }

  function stopPolling() {
    clearInterval(pollTimer);
    pollTimer = null;
  }

  function scheduleReconnect() {
    var delay = Math.min(MAX_DELAY_MS, 1000 * Math.pow(2, attempts));
    attempts += 1;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, delay / 2 + (Math.random() * delay) / 2);
  }

  function connect() {
    clearTimeout(retryTimer);
    var root = list();
    if (!root || socket || stopped) {
      return;
    }
    if (!window.WebSocket) {
      startPolling();
      return;
    }
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var ws = new WebSocket(scheme + window.location.host + root.dataset.wsUrl);
    socket = ws;
    ws.addEventListener("open", function () {
      attempts = 0;
      stopPolling();
      if (connectedOnce) {
        refresh(); // changes made while the socket was down
      }
      connectedOnce = true;
      clearInterval(heartbeatTimer);
      heartbeatTimer = setInterval(function () {
        if (ws.readyState === WebSocket.OPEN) {
          ws.send("{}");
        }
      }, HEARTBEAT_MS);
    });
    ws.addEventListener("message", function (event) {
      var data;
      try {
        data = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (data && data.changed) {
        changed();
      }
    });
    ws.addEventListener("close", function (event) {
      if (socket === ws) {
        socket = null;
        clearInterval(heartbeatTimer);
      }
      if (Object.prototype.hasOwnProperty.call(CLOSED_FOR_GOOD, event.code)) {
        stopped = true;
        stopPolling();
        if (status) {
          status.show(CLOSED_FOR_GOOD[event.code]);
        }
        return;
      }
      startPolling();
      scheduleReconnect();
    });
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || loading) {
      return; // our own refetch
    }
    // The user acts again (a seat, a filter): the notice of the last refusal goes (a new
    // refusal brings its own, out of band). The list's refetches leave it alone.
    var notice = document.getElementById("open-tables-notice");
    if (notice) {
      notice.replaceChildren();
    }
    pending += 1;
    xhr.addEventListener("loadend", function () {
      pending -= 1;
      if (!pending && again) {
        again = false;
        setTimeout(refresh, 0);
      }
    });
  });

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && !stopped) {
      refresh();
      if (!socket) {
        attempts = 0;
        connect();
      }
    }
  });

  connect();
})();
