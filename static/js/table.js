/* The live table page (loaded by templates/games/table.html only, after static/js/site.js).
 * Three parts:
 *
 * 1. The socket. The live element (#board once the game has started, #table in
 *    the lobby) carries data-ws-url, data-fragment-url and data-version. Once the game
 *    has started, the websocket brings "table N is at version V" with this user's own
 *    board (games/tables/boards.py, rendered for them alone): the page swaps it in at once, unless
 *    it already shows V or newer. In the lobby, or when the socket only says a version
 *    (its answer to a heartbeat) or that someone came or went ({"presence": true}), the
 *    page refetches its own fragment with htmx (a version alone, once the game has
 *    started, half a second later: the board of that version may be on its way). While
 *    the user's own request is in flight, nothing is swapped: its answer comes first, then
 *    whatever is newer. The socket reconnects with a growing delay; on every (re)connect,
 *    at every heartbeat and when the tab becomes visible again, the page asks for the
 *    current version and catches up. Closed for good (not logged in, not allowed, too many pages of this
 *    user open: close codes given by the server in the script's data-* attributes, with
 *    the heartbeat), it says so.
 *
 * 2. The board for screen readers and keyboards. #board is replaced at every update, so
 *    the live region that announces the last move and whose turn it is (#table-live) sits
 *    outside it and is filled from the new board's #board-news. After a move the focus,
 *    which was on a button now gone, goes to the first button left to press, or to the
 *    line that says whose turn it is.
 *
 * 3. Copy buttons for the invitation links, with a fallback where the clipboard is refused.
 *
 * Without JavaScript the site still works by full pages.
 */
(function () {
  "use strict";

  // -------------------------------------------------------------------------------------
  // 2. The live region and the focus (used by the swaps below)

  var FOCUS_NEXT = "button[data-card]:enabled, button[data-action]:enabled";
  var announced = null; // what the live region said last (or what the page came with)
  var focusInBoard = false; // the swap in progress replaces the board the user was in

  function boardNews(board) {
    var news = board.querySelector("#board-news");
    return news ? news.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function announce(board) {
    var region = document.getElementById("table-live");
    var text = boardNews(board);
    if (!region || !text || text === announced) {
      return;
    }
    announced = text;
    region.textContent = text;
  }

  function placeFocus(board) {
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) {
      return; // htmx put it back on the same element (same id), or the user moved on
    }
    var next = board.querySelector(FOCUS_NEXT) || board.querySelector("#turn-line");
    if (next) {
      next.focus();
    }
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var target = detail.target;
    // site.js (its listener runs first) has already stopped a swap that is not ours.
    if (target && target.id === "board" && detail.shouldSwap) {
      var source = detail.requestConfig && detail.requestConfig.elt;
      focusInBoard =
        target.contains(document.activeElement) || Boolean(source && target.contains(source));
      var found = /data-version="(\d+)"/.exec(detail.serverResponse || "");
      markMotion(target, found ? Number(found[1]) : 0);
    }
  });

  // -------------------------------------------------------------------------------------
  // 3. Motion (static/css/live.css): a board newer than the one shown lets its newest card
  // travel and a finished trick go to its winner; a board of the same version (fetched
  // again) stands still. While a finished trick is on its way, the next board the socket
  // brings waits for it (TRICK_HOLD_MS at most), so that the bots' play can be followed.
  // The server never waits: its answer is in hand, only its display is later.

  var TRICK_HOLD_MS = 1400;
  var holdUntil = 0;
  var lessMotion = window.matchMedia
    ? window.matchMedia("(prefers-reduced-motion: reduce)")
    : { matches: true };

  function markMotion(current, version) {
    var moved = version > Number(current.dataset.version) && !lessMotion.matches;
    document.documentElement.dataset.motion = moved ? "new" : "same";
  }

  function holdForTrick(board) {
    if (document.documentElement.dataset.motion === "new" && board.querySelector(".trick-done")) {
      holdUntil = Date.now() + TRICK_HOLD_MS;
    } else {
      holdUntil = 0;
    }
  }

  // -------------------------------------------------------------------------------------
  // 1. The socket

  // The server's constants, from this script's data-* attributes
  // (templates/games/table/script.html).
  var given = document.currentScript ? document.currentScript.dataset : {};
  var HEARTBEAT_MS = Number(given.heartbeatMs);
  var MAX_DELAY_MS = 30000;
  // Not logged in, not allowed, too many pages of this user open: closed for good.
  var CLOSED_FOR_GOOD = {};
  CLOSED_FOR_GOOD[given.closedSession] = "session";
  CLOSED_FOR_GOOD[given.closedForbidden] = "closed";
  CLOSED_FOR_GOOD[given.closedTabs] = "tabs";
  var status = window.beloteStatus;

  var socket = null;
  var attempts = 0;
  var connectedOnce = false; // a later open is a reconnect: the chat may have missed some
  var retryTimer = null;
  var heartbeatTimer = null;
  var versionGraceTimer = null;
  var VERSION_GRACE_MS = 500;
  var loading = false;
  var again = false;
  var waitingForBlur = false;
  var heard = 0; // the highest version the socket told
  var presenceMoved = false; // someone came or went since the last refetch
  var pushed = null; // the newest board the socket brought and not yet swapped in
  var told = 0; // the newest board version the server knows this page has
  var pending = 0; // the user's own htmx requests in flight (a move, a lobby form)
  var holdTimer = null; // brings the board held while a finished trick moves (3. Motion)
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
    if (!force && swapPushed(root)) {
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

  // Swap in the board the socket brought, if the page has nothing newer; true if done.
  function swapPushed(root) {
    var board = pushed;
    if (!board || root.id !== "board" || board.version < Math.max(heard, shownVersion(root))) {
      pushed = null;
      return false;
    }
    if (
      board.version === shownVersion(root) &&
      !root.querySelector("#hand-summary") &&
      board.html.indexOf('id="hand-summary"') !== -1
    ) {
      // Rendered before "Donne suivante" reached the session (a presence change, same
      // version): it would bring back the summary the player closed. Fetch it afresh.
      pushed = null;
      return false;
    }
    var wait = holdUntil - Date.now();
    if (wait > 0) {
      // A finished trick is still going to its winner: this board comes right after.
      clearTimeout(holdTimer);
      holdTimer = setTimeout(refresh, wait);
      return true;
    }
    pushed = null;
    presenceMoved = false;
    focusInBoard = root.contains(document.activeElement);
    markMotion(root, board.version);
    htmx.swap(root, board.html, { swapStyle: "outerHTML" });
    return true;
  }

  function onMessage(event) {
    var data;
    try {
      data = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    if (data.chat) {
      // The table's chat (static/js/chat.js): never a board, never a version.
      document.dispatchEvent(new CustomEvent("belote:chat", { detail: data }));
      return;
    }
    if (typeof data.version === "number") {
      heard = Math.max(heard, data.version);
      if (typeof data.html === "string") {
        pushed = { version: data.version, html: data.html };
        told = Math.max(told, data.version);
      } else if (!data.presence && waitForPushedBoard()) {
        return;
      }
    }
    if (data.presence) {
      presenceMoved = true;
    }
    refresh();
  }

  // A version alone (the answer to a heartbeat or a question) may overtake the board of
  // that version on its way to this page: once the game has started, give the board a
  // moment to come before fetching it. True if the refresh was put off.
  function waitForPushedBoard() {
    var root = liveRoot();
    if (!root || root.id !== "board") {
      return false; // the lobby has no pushed board: it refetches at once
    }
    if (!versionGraceTimer) {
      versionGraceTimer = setTimeout(function () {
        versionGraceTimer = null;
        refresh();
      }, VERSION_GRACE_MS);
    }
    return true;
  }

  // The page shows a board the socket did not bring (the answer to its own move, a
  // refetch): say so, and the socket need not render that version for it again.
  function tellShown(version) {
    if (version > told && socket && socket.readyState === WebSocket.OPEN) {
      told = version;
      socket.send(JSON.stringify({ shown: version }));
    }
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
      if (status && status.current() === "network") {
        status.clear(false);
      }
      askVersion();
      // The page came with its chat: a reconnect fetches it again (messages sent while
      // the socket was down); the first opening asks only whether a message came between
      // the page's rendering and now (static/js/chat.js).
      var news = connectedOnce ? "reload" : "catch-up";
      document.dispatchEvent(new CustomEvent("belote:chat", { detail: { chat: news } }));
      connectedOnce = true;
      clearInterval(heartbeatTimer);
      if (HEARTBEAT_MS > 0) {
        heartbeatTimer = setInterval(askVersion, HEARTBEAT_MS);
      }
    });
    ws.addEventListener("message", onMessage);
    ws.addEventListener("close", function (event) {
      if (socket === ws) {
        socket = null;
        clearInterval(heartbeatTimer);
      }
      if (Object.prototype.hasOwnProperty.call(CLOSED_FOR_GOOD, event.code)) {
        // Retrying is useless: the session ended, or the table is no longer theirs.
        if (status) {
          status.show(CLOSED_FOR_GOOD[event.code]);
        }
      } else {
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

  // An answer came for a fragment replaced meanwhile (static/js/site.js): fetch ours again.
  document.addEventListener("belote:stale", function () {
    refresh(true);
  });

  // A refresh must not close what the viewer opened (the last trick, the score sheet),
  // nor open what they closed: remember every <details> with an id across swaps.
  document.addEventListener(
    "toggle",
    function (event) {
      var details = event.target;
      if (details.tagName === "DETAILS" && details.id) {
        openDetails[details.id] = details.open;
      }
    },
    true
  );

  document.addEventListener("htmx:beforeRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || loading) {
      return; // our own refetch
    }
    var elt = event.detail.elt;
    if (elt && elt.closest && elt.closest("#chat")) {
      return; // the chat (static/js/chat.js) never holds the board back
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
      var board = element.id === "board" ? element : element.querySelector("#board");
      if (board && board !== document.body) {
        tellShown(Number(board.dataset.version));
        holdForTrick(board);
        announce(board);
        if (focusInBoard) {
          focusInBoard = false;
          placeFocus(board);
        }
      }
    });
  }

  // -------------------------------------------------------------------------------------
  // 3. Copy buttons (the invitation links, games/_secret_link.html): hidden without
  //    JavaScript. The Clipboard API where the browser grants it; where it is refused or
  //    missing (an insecure origin, a browser setting), the link is selected and the
  //    status line says to copy it.

  // The last copy's outcome, kept for a few seconds: a refetch of the lobby (a poll, a
  // pushed board) can replace the link's block just after the click, and the new block
  // must still say what happened. htmx gives the focus back to the new field, but not
  // a selection that starts at 0, so a refused copy selects the link again.
  var lastCopy = null;
  var COPY_MEMORY_MS = 10000;

  function copyDone(button, key) {
    var status = document.getElementById(button.dataset.copy + "-copy-status");
    if (status) {
      status.textContent = button.getAttribute("data-" + key);
    }
    lastCopy = { id: button.dataset.copy, key: key, at: Date.now() };
  }

  // Called by showCopyButtons, on an element that has querySelector.
  function restoreCopyStatus(root) {
    if (!lastCopy || Date.now() - lastCopy.at > COPY_MEMORY_MS) {
      return;
    }
    var status = root.querySelector("#" + lastCopy.id + "-copy-status");
    var button = root.querySelector('button[data-copy="' + lastCopy.id + '"]');
    if (!status || !button || status.textContent) {
      return;
    }
    status.textContent = button.getAttribute("data-" + lastCopy.key);
    var input = document.getElementById(lastCopy.id);
    var active = document.activeElement;
    if (lastCopy.key === "refused" && input && (active === input || active === document.body)) {
      input.focus();
      input.select();
    }
  }

  // The field is looked up again: a refetch may have replaced it while the clipboard
  // answered (the focus then keeps the next refetch away until the user leaves it).
  function selectForCopy(button) {
    var input = document.getElementById(button.dataset.copy);
    if (input) {
      input.focus();
      input.select();
    }
    copyDone(button, "refused");
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-copy]") : null;
    var input = button && document.getElementById(button.dataset.copy);
    if (!input) {
      return;
    }
    if (!navigator.clipboard || !navigator.clipboard.writeText) {
      selectForCopy(button);
      return;
    }
    navigator.clipboard.writeText(input.value).then(
      function () {
        copyDone(button, "copied");
      },
      function () {
        selectForCopy(button);
      }
    );
  });

  function showCopyButtons(root) {
    if (root.querySelectorAll) {
      root.querySelectorAll("button[data-copy][hidden]").forEach(function (button) {
        button.hidden = false;
      });
      restoreCopyStatus(root);
    }
  }

  showCopyButtons(document);
  if (window.htmx) {
    htmx.onLoad(showCopyButtons);
  }

  var firstBoard = document.getElementById("board");
  if (firstBoard) {
    announced = boardNews(firstBoard); // already on the screen: nothing to announce
  }
  connect();
})();
