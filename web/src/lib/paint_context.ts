// What the timeline's painters use of a canvas's 2D context: the drawing
// calls and the style properties, nothing of the canvas element. A page
// hands them its CanvasRenderingContext2D; a test a fake that records the
// calls (tests/web/timeline_paint.test.ts).
export type PaintContext = Pick<
  CanvasRenderingContext2D,
  | 'save'
  | 'restore'
  | 'clearRect'
  | 'fillRect'
  | 'strokeRect'
  | 'fillText'
  | 'measureText'
  | 'beginPath'
  | 'closePath'
  | 'moveTo'
  | 'lineTo'
  | 'rect'
  | 'clip'
  | 'stroke'
  | 'fill'
  | 'font'
  | 'textBaseline'
  | 'fillStyle'
  | 'strokeStyle'
  | 'lineWidth'
  | 'globalAlpha'
>;
