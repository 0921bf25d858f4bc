// The characters of the page (outside ASCII) that its fonts draw as an empty box or nothing at all: each text
// node's characters are drawn in its computed font on a canvas and compared with unassigned code points (which every
// font draws as its missing-glyph box) and with a space. Returns {checked, missing}.
const canvas = document.createElement("canvas");
canvas.width = 48; canvas.height = 48;
const ctx = canvas.getContext("2d", {willReadFrequently: true});
function draw(ch, font) {
  ctx.clearRect(0, 0, 48, 48);
  ctx.font = "32px " + font;
  ctx.fillText(ch, 4, 36);
  return ctx.getImageData(0, 0, 48, 48).data.join(",");
}
const byFont = new Map();
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
while (walker.nextNode()) {
  const node = walker.currentNode;
  const el = node.parentElement;
  if (!el || !el.getClientRects().length) continue;
  const font = getComputedStyle(el).fontFamily;
  const set = byFont.get(font) || new Set();
  for (const ch of node.textContent) if (ch.codePointAt(0) > 127 && !/\s/.test(ch)) set.add(ch);
  byFont.set(font, set);
}
const missing = [];
let checked = 0;
for (const [font, chars] of byFont) {
  const boxes = new Set([draw("\uFFFF", font), draw("\uE000", font), draw("\u{10FFFD}", font)]);
  const blank = draw(" ", font);
  for (const ch of chars) {
    checked += 1;
    const got = draw(ch, font);
    if (boxes.has(got) || (got === blank && !/\p{Mn}|\uFE0F|\u200D/u.test(ch))) missing.push(ch + " U+" + ch.codePointAt(0).toString(16).toUpperCase() + " in " + font);
  }
}
return {checked: checked, missing: missing};
