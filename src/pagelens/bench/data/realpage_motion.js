// Motion on a real saved page (benchmarks/vision_realpages.py). The corpus pages were saved
// without their scripts, so their carousels stand still offline: this drives the page's own
// carousel markup the way a carousel script does (the card track slides one card to the left
// every PERIOD ms, with a CSS transition), adds a ticking clock (text, every second, fixed
// top-right) and a canvas chart (fixed bottom-left) that repaints a highlight under the mouse:
// drawn content the DOM does not show.
(() => {
  const PERIOD = Number(window.__motionPeriod || 3100);
  // the first slide comes PHASE ms after start (default: one period), the clock's first tick CLOCK_PHASE ms
  const PHASE = Number(window.__motionPhase ?? PERIOD);
  const CLOCK_PHASE = Number(window.__clockPhase ?? 1000);
  const SEL = '[class*=carousel i],[class*=slider i],[class*=swiper i],[class*=slick i],[class*=slideshow i],' +
              '[class*=shoveler i],[class*=rotator i],[id*=carousel i]';
  function cardsOf(el) {
    return [...el.children].filter((c) => { const r = c.getBoundingClientRect(); return r.width > 20 && r.height > 20; });
  }
  function findTrack() {
    let best = null, bestN = 2;
    for (const box of document.querySelectorAll(SEL)) {
      const r = box.getBoundingClientRect();
      if (r.width < 250 || r.height < 40) continue;
      for (const el of [box, ...box.querySelectorAll('ul,ol,div')]) {
        const cards = cardsOf(el);
        if (cards.length <= bestN || el.getBoundingClientRect().height > 0.6 * innerHeight) continue;
        if (cards.some((c) => c.getBoundingClientRect().width > 0.5 * innerWidth)) continue;
        const top = cards[0].getBoundingClientRect().top;
        const row = cards.filter((c) => Math.abs(c.getBoundingClientRect().top - top) < 4).length;
        if (row >= 3) { best = el; bestN = cards.length; }
      }
      if (best) break;
    }
    return best;
  }
  function start() {
    const clock = document.createElement('div');
    clock.style.cssText = 'position:fixed;top:8px;right:8px;z-index:99999;font:bold 20px monospace;' +
                          'background:#ffd;color:#222;padding:4px 8px;border:1px solid #999';
    document.body.appendChild(clock);
    const pad = (x) => String(x).padStart(2, '0');
    let secs = 3600 * 10 + 59 * 60 + 42;
    const tick = () => { secs++; clock.textContent = `${pad((secs / 3600 | 0) % 24)}:${pad((secs / 60 | 0) % 60)}:${pad(secs % 60)}`; };
    tick(); setTimeout(() => { tick(); setInterval(tick, 1000); }, CLOCK_PHASE);
    const canvas = document.createElement('canvas');
    canvas.width = 300; canvas.height = 140;
    canvas.setAttribute('aria-label', 'Sales chart');
    canvas.style.cssText = 'position:fixed;left:8px;bottom:8px;z-index:99999;background:#fff;border:1px solid #888';
    document.body.appendChild(canvas);
    const g = canvas.getContext('2d');
    const bars = [40, 85, 60, 110, 75, 95];
    function draw(hot) {
      g.fillStyle = '#fff'; g.fillRect(0, 0, 300, 140);
      bars.forEach((h, i) => { g.fillStyle = i === hot ? '#d22' : '#36c'; g.fillRect(12 + i * 48, 130 - h, 36, h); });
      if (hot >= 0) { g.fillStyle = '#000'; g.font = 'bold 16px sans-serif'; g.fillText(`Q${hot + 1}: ${bars[hot]}k`, 100, 20); }
    }
    let hot = -1;
    canvas.addEventListener('mousemove', (e) => {
      const i = Math.floor((e.offsetX - 12) / 48);
      const next = i >= 0 && i < bars.length ? i : -1;
      if (next !== hot) { hot = next; draw(hot); }
    });
    draw(-1);
    let track = null;
    try { track = findTrack(); } catch (e) { track = null; }
    window.__carousel = !!track;
    if (track) {
      track.scrollIntoView({ block: 'center' });
      const step = track.children[0].getBoundingClientRect().width || 160;
      let offset = 0, n = 0;
      track.style.transition = 'transform 600ms ease';
      const slide = () => {
        n = (n + 1) % 4;
        offset = n * step;
        track.style.transform = `translateX(${-offset}px)`;
      };
      // a negative phase: the slides start when window.__startSlides() is called (the bench calls it
      // inside an action window: a first slide the watch never saw while idle)
      const begin = () => { slide(); setInterval(slide, PERIOD); };
      if (PHASE >= 0) setTimeout(begin, PHASE); else window.__startSlides = begin;
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
})();
