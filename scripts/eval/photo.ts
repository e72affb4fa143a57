// `--photo TILT`: the rendered page as a phone photographs it lying on a desk. The page (its paper
// a light grey, as a room's light leaves it) lies on a dark wood-grained desk that shows on every
// side; the camera, tilted towards the page's top, narrows the top edge by TILT of the page's
// width on each side; the page lies turned a little (one degree). No resolution is stated (a
// camera's 72 dpi): the reader must find the page and size it itself.
import { invertProjective, project, squareToQuad, type Point } from '../../activities/documents/ocr/paper.js';
import { seededScatter } from './noise.js';

const MARGIN = 0.12;
const PAPER = 0.92;
const TURN = (1 * Math.PI) / 180;

export function photographed(page: Uint8Array, width: number, height: number, tilt: number): { data: Uint8Array; width: number; height: number } {
  const W = Math.round(width * (1 + 2 * MARGIN));
  const H = Math.round(height * (1 + 2 * MARGIN));
  const ox = width * MARGIN;
  const oy = height * MARGIN;
  const flat: Point[] = [
    [ox + tilt * width, oy],
    [ox + width - tilt * width, oy],
    [ox + width, oy + height],
    [ox, oy + height],
  ];
  // turned about the picture's centre
  const [cx, cy] = [W / 2, H / 2];
  const quad = flat.map(([x, y]): Point => [cx + (x - cx) * Math.cos(TURN) - (y - cy) * Math.sin(TURN), cy + (x - cx) * Math.sin(TURN) + (y - cy) * Math.cos(TURN)]);
  const toPage = invertProjective(squareToQuad(quad));
  const out = new Uint8Array(W * H);
  const noise = seededScatter(6);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const [u, v] = project(toPage, x + 0.5, y + 0.5);
      const px = u * width - 0.5;
      const py = v * height - 0.5;
      const x0 = Math.floor(px);
      const y0 = Math.floor(py);
      let grey: number;
      if (x0 < 0 || y0 < 0 || x0 + 1 >= width || y0 + 1 >= height) {
        grey = 80 + 18 * Math.sin(y / 9 + 4 * Math.sin(x / 150)) + 6 * Math.sin(x / 31);
      } else {
        const fx = px - x0;
        const fy = py - y0;
        const i = y0 * width + x0;
        const s = page[i]! * (1 - fx) * (1 - fy) + page[i + 1]! * fx * (1 - fy) + page[i + width]! * (1 - fx) * fy + page[i + width + 1]! * fx * fy;
        grey = s * PAPER;
      }
      out[y * W + x] = Math.max(0, Math.min(255, Math.round(grey + noise())));
    }
  }
  return { data: out, width: W, height: H };
}
