// The printable sheet's Print button (templates/transfer/print.html): shown only where
// JavaScript runs, since it is what opens the print dialog. A file of its own, not an
// inline script: the Content-Security-Policy allows scripts from this server's files only.
document.querySelectorAll("[data-print]").forEach(function (button) {
  button.hidden = false;
  button.addEventListener("click", function () { window.print(); });
});
