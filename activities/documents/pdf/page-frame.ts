// Maps PDF user-space points to the upright page the layout engine works on: the viewport
// applies /Rotate and flips y; a further quarter turn is applied when the page's text runs
// vertically (content drawn sideways on an unrotated page), so that text always reads left to right.

export type Matrix = [number, number, number, number, number, number];

export function multiply(m: Matrix, n: Matrix): Matrix {
  // m applied first, then n (pdf.js Util.transform(n, m) convention).
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

export function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/** Quarter turns (0..3) that make text running in direction (dx, dy) (y down) read left to right. */
export function quarterTurnsFor(dx: number, dy: number): number {
  if (Math.abs(dx) >= Math.abs(dy)) return dx >= 0 ? 0 : 2;
  return dy > 0 ? 1 : 3;
}

export interface PageFrame {
  width: number;
  height: number;
  /** user space -> upright page points (y down) */
  matrix: Matrix;
}

/** Frame for a viewport (width, height, transform) turned by `turns` quarter turns. */
export function makeFrame(viewportWidth: number, viewportHeight: number, viewportTransform: Matrix, turns: number): PageFrame {
  const w = viewportWidth;
  const h = viewportHeight;
  let turn: Matrix;
  switch (((turns % 4) + 4) % 4) {
    case 1: // text runs downwards: (x, y) -> (y, w - x)
      turn = [0, -1, 1, 0, 0, w];
      return { width: h, height: w, matrix: multiply(viewportTransform, turn) };
    case 2:
      turn = [-1, 0, 0, -1, w, h];
      return { width: w, height: h, matrix: multiply(viewportTransform, turn) };
    case 3: // text runs upwards: (x, y) -> (h - y, x)
      turn = [0, 1, -1, 0, h, 0];
      return { width: h, height: w, matrix: multiply(viewportTransform, turn) };
    default:
      return { width: w, height: h, matrix: viewportTransform };
  }
}
