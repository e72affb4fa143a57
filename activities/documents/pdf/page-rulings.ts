// Ruling lines of a page from its drawing operators: stroked paths and thin filled rectangles
// (how most producers draw table borders), mapped onto the upright page.
import type { Ruling } from '../layout/geometry.js';
import { apply, multiply, type Matrix, type PageFrame } from './page-frame.js';

/** pdf.js operator codes used here (pdfjs OPS), passed in so this module needs no pdf.js import. */
export interface OperatorCodes {
  save: number;
  restore: number;
  transform: number;
  constructPath: number;
  paintFormXObjectBegin: number;
  paintFormXObjectEnd: number;
  setFillRGBColor: number;
  stroke: number;
  closeStroke: number;
  fill: number;
  eoFill: number;
  fillStroke: number;
  eoFillStroke: number;
  closeFillStroke: number;
  closeEOFillStroke: number;
}

const MOVE = 0;
const LINE = 1;
const CURVE = 2;
const QUAD = 3;
const CLOSE = 4;

// A filled shape thinner than this (points) is a line; wider ones are backgrounds.
const THIN = 3;
// Shapes are kept if axis-aligned within this slack (points).
const AXIS_SLACK = 1;

export function rulingsOfOperators(fnArray: readonly number[], argsArray: readonly unknown[], ops: OperatorCodes, frame: PageFrame): Ruling[] {
  const rulings: Ruling[] = [];
  const pageArea = frame.width * frame.height;
  let ctm: Matrix = frame.matrix;
  const stack: Matrix[] = [];
  let fillWhite = false;
  const fillStack: boolean[] = [];
  const strokeOps = new Set([ops.stroke, ops.closeStroke, ops.fillStroke, ops.eoFillStroke, ops.closeFillStroke, ops.closeEOFillStroke]);
  const fillOps = new Set([ops.fill, ops.eoFill]);

  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    if (fn === ops.save) {
      stack.push(ctm);
      fillStack.push(fillWhite);
    } else if (fn === ops.restore) {
      ctm = stack.pop() ?? ctm;
      fillWhite = fillStack.pop() ?? fillWhite;
    } else if (fn === ops.transform && args) {
      ctm = multiply(args as Matrix, ctm);
    } else if (fn === ops.paintFormXObjectBegin && args) {
      stack.push(ctm);
      fillStack.push(fillWhite);
      const m = args[0];
      if (Array.isArray(m) || ArrayBuffer.isView(m)) ctm = multiply(Array.from(m as ArrayLike<number>) as Matrix, ctm);
    } else if (fn === ops.paintFormXObjectEnd) {
      ctm = stack.pop() ?? ctm;
      fillWhite = fillStack.pop() ?? fillWhite;
    } else if (fn === ops.setFillRGBColor && args) {
      fillWhite = typeof args[0] === 'string' && args[0].toLowerCase() === '#ffffff';
    } else if (fn === ops.constructPath && args) {
      const paint = args[0] as number;
      const data = (args[1] as unknown[] | undefined)?.[0];
      if (!data || !(ArrayBuffer.isView(data) || Array.isArray(data))) continue;
      const path = data as ArrayLike<number>;
      if (strokeOps.has(paint)) addStrokedPath(path, ctm, rulings);
      else if (fillOps.has(paint) && !fillWhite) addFilledPath(path, ctm, rulings, pageArea);
    }
  }
  return rulings;
}

type Point = [number, number];

/** Splits a path buffer into subpaths of transformed points (curves reduced to their end points). */
function subpaths(path: ArrayLike<number>, ctm: Matrix): { points: Point[]; closed: boolean }[] {
  const result: { points: Point[]; closed: boolean }[] = [];
  let current: { points: Point[]; closed: boolean } | undefined;
  let k = 0;
  while (k < path.length) {
    const op = path[k++];
    if (op === MOVE) {
      current = { points: [apply(ctm, path[k]!, path[k + 1]!)], closed: false };
      result.push(current);
      k += 2;
    } else if (op === LINE) {
      current?.points.push(apply(ctm, path[k]!, path[k + 1]!));
      k += 2;
    } else if (op === CURVE) {
      // A curve is no ruling: break the subpath at its end.
      current = { points: [apply(ctm, path[k + 4]!, path[k + 5]!)], closed: false };
      result.push(current);
      k += 6;
    } else if (op === QUAD) {
      current = { points: [apply(ctm, path[k + 2]!, path[k + 3]!)], closed: false };
      result.push(current);
      k += 4;
    } else if (op === CLOSE) {
      if (current) current.closed = true;
    } else {
      break;
    }
  }
  return result;
}

function addSegment(a: Point, b: Point, out: Ruling[]): void {
  const dx = Math.abs(a[0] - b[0]);
  const dy = Math.abs(a[1] - b[1]);
  if (dy <= AXIS_SLACK && dx > AXIS_SLACK) {
    out.push({ horizontal: true, at: (a[1] + b[1]) / 2, from: Math.min(a[0], b[0]), to: Math.max(a[0], b[0]) });
  } else if (dx <= AXIS_SLACK && dy > AXIS_SLACK) {
    out.push({ horizontal: false, at: (a[0] + b[0]) / 2, from: Math.min(a[1], b[1]), to: Math.max(a[1], b[1]) });
  }
}

function addStrokedPath(path: ArrayLike<number>, ctm: Matrix, out: Ruling[]): void {
  for (const { points, closed } of subpaths(path, ctm)) {
    for (let i = 1; i < points.length; i++) addSegment(points[i - 1]!, points[i]!, out);
    if (closed && points.length > 2) addSegment(points[points.length - 1]!, points[0]!, out);
  }
}

function addFilledPath(path: ArrayLike<number>, ctm: Matrix, out: Ruling[], pageArea: number): void {
  for (const { points } of subpaths(path, ctm)) {
    if (points.length < 3) continue;
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const [x, y] of points) {
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
    const w = x1 - x0;
    const h = y1 - y0;
    if (h <= THIN && w > THIN) out.push({ horizontal: true, at: (y0 + y1) / 2, from: x0, to: x1 });
    else if (w <= THIN && h > THIN) out.push({ horizontal: false, at: (x0 + x1) / 2, from: y0, to: y1 });
    else if (w > THIN && h > THIN && w * h < pageArea * 0.5) {
      // A shaded cell or band: its edges separate rows and columns like drawn borders do.
      out.push({ horizontal: true, at: y0, from: x0, to: x1 }, { horizontal: true, at: y1, from: x0, to: x1 });
      out.push({ horizontal: false, at: x0, from: y0, to: y1 }, { horizontal: false, at: x1, from: y0, to: y1 });
    }
  }
}
