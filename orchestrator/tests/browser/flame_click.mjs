// Opens a flame graph (a standalone .svg, or an .html page with graphs inline) in Debian's
// chromium, headless, and reports as JSON on stdout what a user would see and what a real
// mouse click on frame <name> does. Usage:
//   node flame_click.mjs <file> <frame name> <screenshot.png>
// Output: {graphs, frames, hidden_before, before: box, hit_before, after: box, zoomed, hidden,
// label_after, after_root: box, shown_after_root, errors}; a box is {x, y, width, height} of
// the frame's rect in CSS px, in the page's first graph. Exit 1 with a message on stderr when
// something fails.
import puppeteer from 'puppeteer-core';
import { pathToFileURL } from 'node:url';

const [file, name, png] = process.argv.slice(2);
if (!file || !name || !png) {
  console.error('usage: node flame_click.mjs <file> <frame name> <screenshot.png>');
  process.exit(2);
}
const browser = await puppeteer.launch({
  executablePath: process.env.RLAB_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1300, height: 900 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  // Open every <details> so that inline graphs are laid out.
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
  const box = (n) => page.evaluate((n) => {
    const svg = document.querySelector('svg.flame');
    const g = [...svg.querySelectorAll('g.frame')].find((f) => f.dataset.name === n);
    if (!g || g.style.display === 'none') return null;
    const r = g.querySelector('rect').getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  }, n);
  const hit = (b) => page.evaluate((b) => {
    const e = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
    const g = e && e.closest('g.frame');
    return g ? g.dataset.name : null;
  }, b);
  const counts = () => page.evaluate(() => {
    const svg = document.querySelector('svg.flame');
    const all = [...svg.querySelectorAll('g.frame')];
    return { graphs: document.querySelectorAll('svg.flame').length, frames: all.length,
             hidden: all.filter((f) => f.style.display === 'none').length };
  });
  const first = await counts();
  const out = { graphs: first.graphs, frames: first.frames, hidden_before: first.hidden };
  out.before = await box(name);
  if (!out.before) throw new Error(`no frame named ${name}`);
  out.hit_before = await hit(out.before);
  await page.mouse.click(out.before.x + out.before.width / 2, out.before.y + out.before.height / 2);
  out.after = await box(name);
  out.zoomed = await page.evaluate(() => document.querySelector('svg.flame').dataset.zoomed || null);
  out.hidden = (await counts()).hidden;
  out.label_after = await page.evaluate((n) => {
    const g = [...document.querySelector('svg.flame').querySelectorAll('g.frame')].find((f) => f.dataset.name === n);
    const t = g && g.querySelector('text');
    return t ? t.textContent : null;
  }, name);
  await page.screenshot({ path: png, fullPage: true });
  const root = await box('all');
  await page.mouse.click(root.x + 5, root.y + root.height / 2);
  out.after_root = await box(name);
  out.shown_after_root = (await counts()).frames - (await counts()).hidden;
  out.errors = errors;
  console.log(JSON.stringify(out));
} catch (e) {
  console.error(String(e && e.stack || e));
  process.exitCode = 1;
} finally {
  await browser.close();
}
