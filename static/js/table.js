/* Live refresh of the table page: the only JavaScript of our own (the CSP forbids inline
 * code, so it lives here and is loaded with <script src defer> by games/table.html).
 *
 * The live element (#board once the game has started, #table in the lobby) carries
 * data-ws-url, data-fragment-url and data-version. The websocket only ever says "table N
 * is at version V", or that someone came or went ({"presence": true}); when V is past
 * the page's version, or on a presence ping, the page refetches its own fragment with
 * htmx and swaps it in. No game data travels on the socket.
 *
 * The socket reconnects with a growing delay; on every (re)connect, at every heartbeat
 * and when the tab becomes visible again, the page asks for the current version and
 * catches up. Without JavaScript the page still works by full reloads.
 */
(function () {
  "use strict";

  var HEARTBEAT_MS = 30000; // games/presence.py: HEARTBEAT
  var MAX_DELAY_MS = 30000;
  var FINAL_CLOSE_CODES = [4401, 4404]; // not logged in, not allowed: retrying is useless

  var socket = null;
  var attempts = 0;
  var retryTimer = null;
  var heartbeatTimer = null;
  var loading = false;
  var again = false;
  var waitingForBlur = false;
  var heard = 0; // the highest version the socket told
  var presenceMoved = false; // someone came or went since the last refetch
  var pending = 0; // the user's own htmx requests in flight (a move, a lobby form)
  var openDetails = {};

  function liveRoot() {
    return document.querySelector("[data-ws-url]");
  }

  // The version the page shows: the live element's, or a newer one of a lobby fragment
  // swapped in after the user's own action (#seats, #invites carry theirs).
  function shownVersion(root) {
    var version = Number(root.dataset.version);
    root.querySelectorAll("[data-version]").forEach(function (element) {
      version = Math.max(version, Number(element.dataset.version));
    });
    return version;
  }

  function behind(root) {
    // Versions only grow: a page already past what the socket said (its own move's
    // answer came first) is not behind.
    return presenceMoved || heard > shownVersion(root);
  }

  function typingIn(root) {
    var active = document.activeElement;
    return (
      active && root.contains(active) && active.matches("input:not([type=hidden]), select, textarea")
    );
  }

  // Refetch the live fragment if the page is behind (or always, with force).
  function refresh(force) {
    var root = liveRoot();
    if (!root || !root.id || !window.htmx || !(force || behind(root))) {
      return;
    }
    if (pending) {
      // The answer to the user's own request is coming, and it is the fresh fragment:
      // look again once it is in.
      return;
    }
    if (loading) {
      again = true;
      return;
    }
    if (typingIn(root)) {
      // Someone is filling a lobby form: catch up a moment after they leave the field,
      // once the answer to what they did meanwhile (if anything) has come back.
      if (!waitingForBlur) {
        waitingForBlur = true;
        document.activeElement.addEventListener(
          "blur",
          function () {
            waitingForBlur = false;
            setTimeout(function () {
              refresh(false);
            }, 1000);
          },
          { once: true }
        );
      }
      return;
    }
    loading = true;
    presenceMoved = false;
    var done = function () {
      loading = false;
      if (again) {
        again = false;
        refresh();
      }
    };
    htmx
      .ajax("GET", root.dataset.fragmentUrl, { target: "#" + root.id, swap: "outerHTML" })
      .then(done, done);
  }

  function onMessage(event) {
    var data;
    try {
      data = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    if (typeof data.version === "number") {
      heard = Math.max(heard, data.version);
    }
    if (data.presence) {
      presenceMoved = true;
    }
    refresh();
  }

  function askVersion() {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ want: "version" }));
    }
  }

  function scheduleReconnect() {
    var delay = Math.min(MAX_DELAY_MS, 1000 * Math.pow(2, attempts));
    attempts += 1;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, delay / 2 + (Math.random() * delay) / 2);
  }

  function connect() {
    clearTimeout(retryTimer);
    var root = liveRoot();
    if (!root || socket || !window.WebSocket) {
      return;
    }
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var ws = new WebSocket(scheme + window.location.host + root.dataset.wsUrl);
    socket = ws;
    ws.addEventListener("open", function () {
      attempts = 0;
      askVersion();
      clearInterval(heartbeatTimer);
      heartbeatTimer = setInterval(askVersion, HEARTBEAT_MS);
    });
    ws.addEventListener("message", onMessage);
    ws.addEventListener("close", function (event) {
      if (socket === ws) {
        socket = null;
        clearInterval(heartbeatTimer);
      }
      if (FINAL_CLOSE_CODES.indexOf(event.code) === -1) {
        scheduleReconnect();
      }
    });
  }

  function wakeUp() {
    if (socket) {
      askVersion();
    } else {
      attempts = 0;
      connect();
    }
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      wakeUp();
      refresh(true);
    }
  });
  window.addEventListener("online", wakeUp);

  // A refresh must not close what the viewer opened (the last trick, the score sheet),
  // nor open what they closed: remember every <details> with an id across swaps.
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (details.tagName === "DETAILS" && details.id) {
      openDetails[details.id] = details.open;
    }
  }, true);

  document.addEventListener("htmx:beforeRequest", function (event) {
    var xhr = event.detail.xhr;
    if (loading || !xhr) {
      return; // our own refetch
    }
    pending += 1;
    xhr.addEventListener("loadend", function () {
      pending -= 1;
      setTimeout(function () {
        refresh(false);
      }, 0);
    });
  });

  if (window.htmx) {
    htmx.onLoad(function (element) {
      if (!element.querySelectorAll) {
        return;
      }
      element.querySelectorAll("details[id]").forEach(function (details) {
        if (Object.prototype.hasOwnProperty.call(openDetails, details.id)) {
          details.open = openDetails[details.id];
        }
      });
      // The lobby turned into the game: the board wants the wide layout of its page.
      var main = document.querySelector("main.site-main");
      if (main && element.id === "table") {
        main.classList.toggle("site-main-wide", Boolean(document.getElementById("board")));
      }
    });
  }

  connect();
})();
