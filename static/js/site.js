/* The site-wide JavaScript (the CSP forbids inline code, so it lives here), loaded on
 * every page by base.html with <script src defer>: what htmx does not tell.
 *
 * A refused action answers its own fragment with its message (400, 403, 409, 422, 429:
 * swapped in like a success, see base.html's htmx-config). Anything else is not ours to
 * swap: a 404 or a 5xx, one of the site's error pages (they carry data-error-page: a CSRF
 * failure, a 403), the login page after an expired session, a network failure. Nothing is
 * swapped then; a French message shows in #site-status (base.html, outside every
 * fragment), its texts written by the template. An expired session goes to the login page
 * (the views answer htmx with HX-Redirect; a login page reached by a redirect is caught
 * here too).
 *
 * The table page adds static/js/table.js (its socket), which uses window.beloteStatus to
 * tell its own problems, and hears "belote:stale" when an answer came for a fragment
 * that was replaced meanwhile. Without JavaScript the site still works by full pages.
 *
 * It also closes what opens over the page (a <details data-popup>) on a tap elsewhere or
 * on Escape.
 */
(function () {
  "use strict";

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
      var kind = problemFor(xhr, /^(400|403|409|422|429)$/.test(String(xhr.status)));
      if (kind) {
        tell(kind);
      } else {
        // A fresh fragment swapped into nothing: the page's own must be fetched again
        // (static/js/table.js listens on a table page).
        setTimeout(function () {
          document.dispatchEvent(new CustomEvent("belote:stale"));
        }, 0);
      }
    });
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
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.xhr) {
      followAnswer(event.detail.xhr, event.detail.target);
    }
  });

  // What opens over the page (a <details data-popup>: the header's menu on a phone, a
  // table's rules and invitations) closes when the user taps elsewhere or presses Escape.
  document.addEventListener("click", function (event) {
    document.querySelectorAll("details[data-popup][open]").forEach(function (popup) {
      if (!popup.contains(event.target)) {
        popup.open = false;
      }
    });
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") {
      return;
    }
    document.querySelectorAll("details[data-popup][open]").forEach(function (popup) {
      popup.open = false;
      if (popup.contains(document.activeElement)) {
        popup.querySelector("summary").focus();
      }
    });
  });

  window.addEventListener("offline", function () {
    showProblem("network");
  });

  window.beloteStatus = {
    show: showProblem,
    clear: clearProblem,
    current: function () {
      return problem;
    },
  };
})();
