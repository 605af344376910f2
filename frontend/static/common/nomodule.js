// Runs only in a browser without ES modules (an old smart TV): the pages' scripts are modules,
// so it would stay on "Loading…". Say so instead, in the page's language (the server put the
// text in body[data-nomodule]). Old JavaScript on purpose: no let, no arrows.
(function () {
  var body = document.body;
  var text = body.getAttribute('data-nomodule');
  var box = document.getElementById('app') || document.querySelector('main') || body;
  var p = document.createElement('p');
  p.className = 'center-screen nomodule';
  p.setAttribute('role', 'alert');
  p.appendChild(document.createTextNode(text));
  while (box.firstChild) box.removeChild(box.firstChild);
  box.appendChild(p);
}());
