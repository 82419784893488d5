// Scorekeeper: the welcome page's "Scan its QR code" (issue 18, part 5). Only an addition:
// without this file the page's form takes a pasted link or code, and says how to join.
// Where the browser can read a QR code (BarcodeDetector with qr_code) and open the camera
// (getUserMedia, a secure page), the Scan button shows; it opens the rear camera, reads the
// group's QR code and sends what it holds through the same form as a pasted link (the server
// reads it, and says beside the field when it is no group's link). Texts come from the
// page's data- attributes (templates/groups/welcome.html), in the page's language.
"use strict";
(function () {
  const form = document.querySelector("[data-scan-form]");
  if (!form) return;

  async function canScan() {
    if (!("BarcodeDetector" in window) || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) return false;
    try {
      const formats = await window.BarcodeDetector.getSupportedFormats();
      return formats.includes("qr_code");
    } catch (e) {
      return false;
    }
  }

  function setup() {
    const scan = form.querySelector("[data-scan]");
    const none = form.querySelector("[data-scan-none]");
    const scanner = form.querySelector("[data-scanner]");
    const video = form.querySelector("[data-scan-video]");
    const status = form.querySelector("[data-scan-status]");
    const stopButton = form.querySelector("[data-scan-stop]");
    const field = form.querySelector("input[name=link]");
    if (!scan || !scanner || !video || !field) return;
    const waiting = status ? status.textContent : "";
    let stream = null;
    let timer = null;

    function stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      if (stream) stream.getTracks().forEach((track) => track.stop());
      stream = null;
      video.srcObject = null;
      scanner.hidden = true;
      scan.hidden = false;
    }

    async function start() {
      if (status) status.textContent = waiting;
      scanner.hidden = false;
      video.hidden = false;
      scan.hidden = true;
      try {
        const detector = new window.BarcodeDetector({ formats: ["qr_code"] });
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: "environment" } }, audio: false });
        video.srcObject = stream;
        await video.play().catch(() => undefined);
        const look = async function () {
          if (!stream) return;
          let found = [];
          try {
            found = await detector.detect(video);
          } catch (e) { /* no frame yet: look again */ }
          const code = found.find((c) => c && c.rawValue);
          if (code) {
            field.value = code.rawValue.trim();
            stop();
            if (form.requestSubmit) form.requestSubmit(); else form.submit();
            return;
          }
          timer = setTimeout(look, 250);
        };
        look();
      } catch (e) {
        stop();
        scanner.hidden = false;
        video.hidden = true;
        if (status) status.textContent = scanner.dataset.scanFailed || "";
        if (stopButton) stopButton.hidden = true;
        scan.hidden = false;
      }
    }

    canScan().then(function (yes) {
      if (!yes) return;
      scan.hidden = false;
      if (none) none.hidden = true;
      scan.addEventListener("click", function () {
        if (stopButton) stopButton.hidden = false;
        start();
      });
      if (stopButton) stopButton.addEventListener("click", stop);
      window.addEventListener("pagehide", stop);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
