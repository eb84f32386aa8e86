// Behaviour every page shares, kept out of the HTML: the Content-Security-Policy runs only
// the site's own script files, never inline handlers.
(function () {
  // <select data-autosubmit>: choosing an option submits its form (the list filters).
  document.addEventListener("change", function (event) {
    if (event.target.matches("select[data-autosubmit]")) event.target.form.submit();
  });
  // <form data-confirm="question">: submitted only once the visitor says yes.
  document.addEventListener("submit", function (event) {
    var question = event.target.getAttribute && event.target.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  });
})();
