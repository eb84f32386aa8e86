// The "Check Go code" tab: what HTML cannot do (Tab and Ctrl+Enter in the editor, copy buttons).
// A file of its own, not inline: the Content-Security-Policy runs only the site's own scripts.
(function () {
  var source = document.getElementById("go-source");
  var form = document.getElementById("go-form");
  source.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    } else if (event.key === "Tab" && !event.shiftKey && !event.ctrlKey && !event.altKey) {
      // Go is indented with tabs: the Tab key types one (Esc then Tab leaves the box).
      if (source.dataset.escaped === "1") { source.dataset.escaped = ""; return; }
      event.preventDefault();
      var start = source.selectionStart, end = source.selectionEnd;
      source.setRangeText("\t", start, end, "end");
    } else if (event.key === "Escape") {
      source.dataset.escaped = "1";
    } else {
      source.dataset.escaped = "";
    }
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var from = document.querySelector(button.dataset.copy);
    var text = from.value !== undefined ? from.value : from.innerText;
    var done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy"; }, 1200); };
    if (navigator.clipboard) { navigator.clipboard.writeText(text).then(done); }
    else { var t = document.createElement("textarea"); t.value = text; document.body.appendChild(t); t.select(); document.execCommand("copy"); t.remove(); done(); }
  });
})();
