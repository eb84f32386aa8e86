// The playground page: what HTML cannot do (a random seed, copy buttons, remembering the code tab).
// A file of its own, not inline: the Content-Security-Policy runs only the site's own scripts.
(function () {
  // The form is only htmx's: Enter in a field must not submit it as a page.
  document.getElementById("pg").addEventListener("submit", function (event) { event.preventDefault(); });
  // Ctrl+Enter in the effect box checks it now (its hx-trigger listens for check-now): an
  // htmx event filter would be evaluated as a string, which the policy forbids.
  document.addEventListener("keydown", function (event) {
    if (event.target.id === "effect" && event.ctrlKey && event.key === "Enter") {
      event.target.dispatchEvent(new CustomEvent("check-now", { bubbles: true }));
    }
  });
  var seed = document.getElementById("seed");
  document.getElementById("new-seed").addEventListener("click", function () {
    seed.value = Math.floor(Math.random() * 1e9);
    seed.dispatchEvent(new Event("change", { bubbles: true }));
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var source = document.querySelector(button.dataset.copy);
    var text = source.value !== undefined ? source.value : source.innerText;
    var done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy"; }, 1200); };
    if (navigator.clipboard) { navigator.clipboard.writeText(text).then(done); }
    else { var t = document.createElement("textarea"); t.value = text; document.body.appendChild(t); t.select(); document.execCommand("copy"); t.remove(); done(); }
  });
  var tab = null;
  document.addEventListener("change", function (event) {
    if (event.target.name === "lang-tab") tab = event.target.value;
  });
  document.body.addEventListener("htmx:afterSwap", function () {
    var radio = tab && document.getElementById("tab-" + tab);
    if (radio) radio.checked = true;
  });
})();
