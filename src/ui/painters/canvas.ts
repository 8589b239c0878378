/**
 * Canvas primitives shared by the replay's canvases (the GridHouse map, the shop's pages): sizing a
 * canvas at the device's pixel ratio, a rounded rectangle's path, and the milestone star.
 */

/**
 * Sizes `canvas` to `w` × `h` CSS pixels at the device pixel ratio and returns its 2D context, scaled
 * to CSS pixels and cleared. Resizing a canvas reallocates its backing store: it is done only when the
 * size changes, not every step.
 */
export function fitCanvas(canvas: HTMLCanvasElement, w: number, h: number): CanvasRenderingContext2D {
  const dpr = devicePixelRatio || 1;
  const [pw, ph] = [Math.round(w * dpr), Math.round(h * dpr)];
  if (canvas.width !== pw || canvas.height !== ph) {
    canvas.style.width = `${w}px`;
    canvas.style.height = `${h}px`;
    canvas.width = pw;
    canvas.height = ph;
  }
  const ctx = canvas.getContext('2d')!;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  return ctx;
}

/** Begins a path holding one rounded rectangle (fill or stroke it next). */
export function roundRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

/** A five-pointed star of outer radius `r` centred on (x, y), filled with `color` and outlined dark. */
export function star(ctx: CanvasRenderingContext2D, x: number, y: number, r: number, color: string): void {
  ctx.beginPath();
  for (let i = 0; i < 10; i++) {
    const rad = i % 2 === 0 ? r : r * 0.45;
    const ang = -Math.PI / 2 + (i * Math.PI) / 5;
    const px = x + rad * Math.cos(ang);
    const py = y + rad * Math.sin(ang);
    if (i === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  }
  ctx.closePath();
  ctx.fillStyle = color;
  ctx.fill();
  ctx.strokeStyle = 'rgba(0,0,0,0.55)';
  ctx.lineWidth = 1;
  ctx.stroke();
}
