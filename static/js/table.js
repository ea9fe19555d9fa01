/* Our only JavaScript (the CSP forbids inline code, so it lives here), loaded on every page
 * by base.html with <script src defer>. Four parts:
 *
 * 1. What htmx does not tell. A refused action answers its own fragment with its message
 *    (400, 403, 409, 422: swapped in like a success, see base.html's htmx-config). Anything
 *    else is not ours to swap: a 404 or a 5xx, one of the site's error pages (they carry
 *    data-error-page: a CSRF failure, a 403), the login page after an expired session, a
 *    network failure. Nothing is swapped then; a French message shows in #site-status
 *    (base.html, outside every fragment), its texts written by the template. An expired
 *    session goes to the login page (the views answer htmx with HX-Redirect; a login page
 *    reached by a redirect is caught here too).
 *
 * 2. The live table page. The live element (#board once the game has started, #table in
 *    the lobby) carries data-ws-url, data-fragment-url and data-version. Once the game
 *    has started, the websocket brings "table N is at version V" with this user's own
 *    board (games/live.py, rendered for them alone): the page swaps it in at once, unless
 *    it already shows V or newer. In the lobby, or when the socket only says a version
 *    (its answer to a heartbeat) or that someone came or went ({"presence": true}), the
 *    page refetches its own fragment with htmx. While the user's own request is in
 *    flight, nothing is swapped: its answer comes first, then whatever is newer. The
 *    socket reconnects with a growing delay; on every (re)connect, at every heartbeat and
 *    when the tab becomes visible again, the page asks for the current version and
 *    catches up. Closed for good (4401 not logged in, 4404 not allowed, 4429 too many
 *    pages of this user open), it says so.
 *
 * 3. The board for screen readers and keyboards. #board is replaced at every update, so
 *    the live region that announces the last move and whose turn it is (#table-live) sits
 *    outside it and is filled from the new board's #board-news. After a move the focus,
 *    which was on a button now gone, goes to the first button left to press, or to the
 *    line that says whose turn it is.
 *
 * 4. Copy buttons for the invitation links, with a fallback where the clipboard is refused.
 *
 * Without JavaScript the site still works by full pages.
 */
(function () {
  "use strict";

  // -------------------------------------------------------------------------------------
  // 1. Problems, told in #site-status

  var LASTING = ["csrf", "session", "closed", "tabs"]; // only the user ends them (reload, login)
  var ERROR_PAGE = /data-error-page="([\w-]+)"/;
  var problem = null;

  function statusArea() {
    return document.getElementById("site-status");
  }

  function loginUrl() {
    var area = statusArea();
    var here = window.location.pathname + window.location.search;
    return area.dataset.loginUrl + "?next=" + encodeURIComponent(here);
  }

  function showProblem(kind) {
    var area = statusArea();
    if (!area) {
      return;
    }
    problem = kind;
    area.textContent = "";
    area.dataset.problem = kind;
    var text = document.createElement("p");
    text.className = "site-status-text";
    text.textContent = area.getAttribute("data-msg-" + kind) || area.dataset.msgServer;
    area.appendChild(text);
    var link = null;
    if (kind === "csrf" || kind === "closed" || kind === "tabs") {
      link = document.createElement("a");
      link.href = window.location.href;
      link.textContent = area.dataset.reloadLabel;
    } else if (kind === "session") {
      link = document.createElement("a");
      link.href = loginUrl();
      link.textContent = area.dataset.loginLabel;
    }
    if (link) {
      link.className = "button";
      area.appendChild(link);
    }
    var close = document.createElement("button");
    close.type = "button";
    close.className = "button-secondary site-status-close";
    close.textContent = area.dataset.closeLabel;
    close.addEventListener("click", function () {
      clearProblem(true);
    });
    area.appendChild(close);
  }

  function clearProblem(always) {
    var area = statusArea();
    if (!area || !problem || (!always && LASTING.indexOf(problem) !== -1)) {
      return;
    }
    problem = null;
    area.textContent = "";
    delete area.dataset.problem;
  }

  function isLoginPage(xhr) {
    var area = statusArea();
    if (!area || !xhr || !xhr.responseURL) {
      return false;
    }
    try {
      return new URL(xhr.responseURL).pathname === area.dataset.loginUrl;
    } catch (error) {
      return false;
    }
  }

  // What an answer means for the page: null for one to swap (a success, or a refusal of
  // ours with its fragment), "login" for the login page (the session expired), else the
  // kind of problem to tell.
  function problemFor(xhr, swappable) {
    if (isLoginPage(xhr)) {
      return "login";
    }
    if (xhr.status < 400) {
      return null;
    }
    var body = typeof xhr.responseText === "string" ? xhr.responseText : "";
    var page = ERROR_PAGE.exec(body);
    if (swappable && !page && !/<html[\s>]/i.test(body)) {
      return null;
    }
    if (page && page[1] === "csrf") {
      return "csrf";
    }
    if (xhr.status === 404) {
      return "gone";
    }
    if (xhr.status === 403) {
      return "forbidden";
    }
    return "server";
  }

  function tell(kind) {
    if (kind === "login") {
      window.location.assign(loginUrl());
    } else {
      showProblem(kind);
    }
  }

  // The answer to a request whose target was replaced meanwhile (a refetch of the board
  // came first) never reaches htmx:beforeSwap here: htmx swaps it into an element that is
  // no longer in the page, and its events stop there. So each request is also followed on
  // its XMLHttpRequest: a network failure, or an answer htmx did not show us.
  function followAnswer(xhr, target) {
    var failed = function () {
      showProblem("network");
    };
    xhr.addEventListener("error", failed);
    xhr.addEventListener("timeout", failed);
    // Runs after htmx's own onload (set before htmx:beforeRequest), swap included.
    xhr.addEventListener("load", function () {
      if (xhr.beloteSeen || (target && document.contains(target))) {
        return;
      }
      var kind = problemFor(xhr, /^(400|403|409|422)$/.test(String(xhr.status)));
      if (kind) {
        tell(kind);
      } else {
        // A fresh fragment swapped into nothing: fetch the page's own again.
        setTimeout(function () {
          refresh(true);
        }, 0);
      }
    });
  }

  // -------------------------------------------------------------------------------------
  // 3. The live region and the focus (used by the swaps below)

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
    var xhr = detail.xhr;
    xhr.beloteSeen = true; // followAnswer need not look at it
    var kind = problemFor(xhr, detail.shouldSwap);
    if (kind) {
      // Not a fragment of ours (an error page, the login page after the session expired):
      // keep the page as it is, and say what happened.
      detail.shouldSwap = false;
      detail.isError = false;
      tell(kind);
      return;
    }
    clearProblem(false);
    var target = detail.target;
    if (target && target.id === "board" && detail.shouldSwap) {
      var source = detail.requestConfig && detail.requestConfig.elt;
      focusInBoard =
        target.contains(document.activeElement) || Boolean(source && target.contains(source));
    }
  });

  window.addEventListener("offline", function () {
    showProblem("network");
  });

  // -------------------------------------------------------------------------------------
  // 2. The live table page

  var HEARTBEAT_MS = 30000; // games/presence.py: HEARTBEAT
  var MAX_DELAY_MS = 30000;
  // games/consumers.py: not logged in, not allowed, too many pages of this user open.
  var CLOSED_FOR_GOOD = { 4401: "session", 4404: "closed", 4429: "tabs" };

  var socket = null;
  var attempts = 0;
  var retryTimer = null;
  var heartbeatTimer = null;
  var loading = false;
  var again = false;
  var waitingForBlur = false;
  var heard = 0; // the highest version the socket told
  var presenceMoved = false; // someone came or went since the last refetch
  var pushed = null; // the newest board the socket brought and not yet swapped in
  var told = 0; // the newest board version the server knows this page has
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
    pushed = null;
    if (!board || root.id !== "board" || board.version < Math.max(heard, shownVersion(root))) {
      return false;
    }
    presenceMoved = false;
    focusInBoard = root.contains(document.activeElement);
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
    if (typeof data.version === "number") {
      heard = Math.max(heard, data.version);
      if (typeof data.html === "string") {
        pushed = { version: data.version, html: data.html };
        told = Math.max(told, data.version);
      }
    }
    if (data.presence) {
      presenceMoved = true;
    }
    refresh();
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
      if (problem === "network") {
        clearProblem(false);
      }
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
      if (Object.prototype.hasOwnProperty.call(CLOSED_FOR_GOOD, event.code)) {
        // Retrying is useless: the session ended, or the table is no longer theirs.
        showProblem(CLOSED_FOR_GOOD[event.code]);
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
    if (!xhr) {
      return;
    }
    followAnswer(xhr, event.detail.target);
    if (loading) {
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
      var board = element.id === "board" ? element : element.querySelector("#board");
      if (board && board !== document.body) {
        tellShown(Number(board.dataset.version));
        announce(board);
        if (focusInBoard) {
          focusInBoard = false;
          placeFocus(board);
        }
      }
    });
  }

  // -------------------------------------------------------------------------------------
  // 4. Copy buttons (the invitation links, games/_secret_link.html): hidden without
  //    JavaScript. The Clipboard API where the browser grants it; where it is refused or
  //    missing (an insecure origin, a browser setting), the link is selected and the
  //    status line says to copy it.

  function copyDone(button, key) {
    var status = document.getElementById(button.dataset.copy + "-copy-status");
    if (status) {
      status.textContent = button.getAttribute("data-" + key);
    }
  }

  function selectForCopy(input, button) {
    input.focus();
    input.select();
    copyDone(button, "refused");
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-copy]") : null;
    var input = button && document.getElementById(button.dataset.copy);
    if (!input) {
      return;
    }
    if (!navigator.clipboard || !navigator.clipboard.writeText) {
      selectForCopy(input, button);
      return;
    }
    navigator.clipboard.writeText(input.value).then(
      function () {
        copyDone(button, "copied");
      },
      function () {
        selectForCopy(input, button);
      }
    );
  });

  function showCopyButtons(root) {
    if (root.querySelectorAll) {
      root.querySelectorAll("button[data-copy][hidden]").forEach(function (button) {
        button.hidden = false;
      });
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
