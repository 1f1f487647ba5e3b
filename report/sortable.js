// Sortable tables: a click (or Enter) on a header sorts the rows by that
// column, numbers by the cells' data-v, text otherwise; again reverses.
// Cells without a value sort last. With JavaScript off the tables read
// as written.
document.querySelectorAll("table.sortable").forEach(function (t) {
  var ths = t.tHead.rows[0].cells;
  Array.prototype.forEach.call(ths, function (th, i) {
    th.tabIndex = 0;
    var sort = function () {
      var asc = th.getAttribute("aria-sort") !== "ascending";
      Array.prototype.forEach.call(ths, function (x) { x.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
      var body = t.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      var num = rows.some(function (r) { return r.cells[i] && r.cells[i].hasAttribute("data-v"); });
      var key = function (r) {
        var c = r.cells[i];
        if (!c) return null;
        if (num) { var v = parseFloat(c.getAttribute("data-v")); return isNaN(v) ? null : v; }
        return c.textContent.trim();
      };
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        if (x === null || y === null) return (x === null) - (y === null);
        var d = num ? x - y : x.localeCompare(y, undefined, {numeric: true});
        return asc ? d : -d;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    };
    th.addEventListener("click", sort);
    th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); } });
  });
});
