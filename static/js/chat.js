/* The table's chat (templates/games/table/chat.html), beside the live table page.
 *
 * static/js/table.js owns the socket and hands this file every chat message it brings
 * ("belote:chat"): {chat: html} is one message already rendered for this user by the
 * server (escaped there), appended to the log; {chat: "reload"} (the settings changed,
 * or the socket reconnected and may have missed some) fetches the whole #chat again;
 * {chat: "catch-up"} (the socket's first opening: the page came with its chat) asks for
 * it only if a message came since the newest one shown (data-chat-last), a 204 if none. While the drawer is closed,
 * the "Discussion" button counts the unread messages. The forms
 * are plain htmx forms; after a send the field is emptied and keeps the focus. A user
 * without the chat has a hidden, empty #chat: so the drawer appears when the creator
 * turns the chat on or lets spectators in, and goes when they keep spectators out.
 */
(function () {
  "use strict";

  var unread = 0;

  function drawer() {
    return document.getElementById("chat");
  }

  function showUnread() {
    var badge = document.querySelector("[data-chat-unread]");
    if (!badge) {
      return;
    }
    badge.textContent = unread > 0 ? String(unread) : "";
    badge.hidden = unread === 0;
  }

  function scrollDown() {
    var log = document.getElementById("chat-log");
    if (log) {
      log.scrollTop = log.scrollHeight;
    }
  }

  function reload(onlyIfNews) {
    var zone = drawer();
    if (!zone || !window.htmx) {
      return;
    }
    var url = zone.dataset.chatZoneUrl;
    if (onlyIfNews) {
      if (zone.dataset.chatLast === undefined) {
        return; // no chat on this page for this user
      }
      url += "&after=" + encodeURIComponent(zone.dataset.chatLast); // 204 when none
    }
    var field = document.getElementById("chat-text");
    if (field && document.activeElement === field && field.value) {
      return; // someone is typing: the next message brings the news
    }
    // The whole #chat: it appears, or goes, as the settings now say for this user; an
    // open drawer stays open.
    var wasOpen = Boolean(zone.open);
    var swap = { target: "#chat", swap: "outerHTML" };
    htmx.ajax("GET", url, swap).then(function () {
      var now = drawer();
      if (now && now.tagName === "DETAILS" && wasOpen) {
        now.open = true;
      }
    });
  }

  function append(html, id) {
    var log = document.getElementById("chat-log");
    if (!log || log.querySelector('[data-message="' + id + '"]')) {
      return;
    }
    var empty = log.querySelector(".chat-empty");
    if (empty) {
      empty.remove();
    }
    if (drawer() && Number(id) > Number(drawer().dataset.chatLast || 0)) {
      drawer().dataset.chatLast = String(id);
    }
    var holder = document.createElement("ol");
    holder.innerHTML = html; // rendered and escaped by the server for this user
    while (holder.firstElementChild) {
      log.appendChild(holder.firstElementChild);
    }
    scrollDown();
    if (drawer() && !drawer().open) {
      unread += 1;
      showUnread();
    }
  }

  document.addEventListener("belote:chat", function (event) {
    var data = event.detail || {};
    if (data.chat === "reload") {
      reload(false);
    } else if (data.chat === "catch-up") {
      reload(true);
    } else if (typeof data.chat === "string") {
      append(data.chat, data.message);
    }
  });

  document.addEventListener(
    "toggle",
    function (event) {
      if (event.target === drawer() && drawer().open) {
        unread = 0;
        showUnread();
        scrollDown();
      }
    },
    true
  );

  if (window.htmx) {
    htmx.onLoad(function (element) {
      if (element.id === "chat-panel" || element.id === "chat") {
        scrollDown();
        var field = document.getElementById("chat-text");
        if (field && drawer() && drawer().open && element.querySelector(".notice-error") === null) {
          field.focus();
        }
      }
    });
  }
  scrollDown();
})();
