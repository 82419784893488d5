// "Copy link" beside a link to share (templates/groups/_qr.html): shown only with
// JavaScript; copies with the Clipboard API where the page may use it (HTTPS, localhost),
// else (plain http on the Wi-Fi, or where the browser refuses it) by selecting the text, and says "Copied".
(function () {
  "use strict";
  function copied(button) {
    const label = button.textContent;
    button.textContent = button.dataset.copied;
    setTimeout(function () { button.textContent = label; }, 2000);
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-copy]").forEach(function (button) {
      const field = document.getElementById(button.dataset.copy);
      if (!field) return;
      button.hidden = false;
      function bySelecting() {
        field.focus();
        field.select();
        try {
          if (document.execCommand("copy")) copied(button);
        } catch (e) { /* the text stays selected to copy by hand */ }
      }
      button.addEventListener("click", function () {
        if (navigator.clipboard && window.isSecureContext) {
          // a browser that refuses the page the clipboard (a setting, a headless
          // browser) still has the selection's copy
          navigator.clipboard.writeText(field.value).then(function () { copied(button); }, bySelecting);
          return;
        }
        bySelecting();
      });
    });
  });
})();
