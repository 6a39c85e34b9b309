// Runs first, before the page renders or loads anything: takes the one-time token out of the
// address bar (history.replaceState), so it is not left in the history, in a bookmark, in a
// screenshot of the address bar or in a Referer. The page's module script reads it from here.
(function () {
  var url = new URL(window.location.href);
  var token = url.searchParams.get("token");
  if (token === null) return;
  url.searchParams.delete("token");
  url.searchParams.delete("tenantId");
  window.history.replaceState(null, "", url.pathname + url.search + url.hash);
  Object.defineProperty(window, "authsvcToken", { value: token, enumerable: false });
})();
