// A fake 2D context for the canvas painters' tests: it records every drawing
// call with its arguments and the style in force (fill and stroke colour,
// line width, alpha, font), keeps save/restore's style stack as a canvas
// does, and measures text at a fixed 6 px a character (so a test can work
// out by hand what fits).
import type { PaintContext } from '../../web/src/lib/paint_context';

export const CHAR_WIDTH = 6;

type Style = Pick<PaintContext, 'fillStyle' | 'strokeStyle' | 'lineWidth' | 'globalAlpha' | 'font' | 'textBaseline'>;

export interface Command {
  op: string;
  args: unknown[];
  fillStyle: string;
  strokeStyle: string;
  lineWidth: number;
  globalAlpha: number;
  font: string;
}

export class PaintRecorder implements PaintContext {
  commands: Command[] = [];
  fillStyle: PaintContext['fillStyle'] = '#000000';
  strokeStyle: PaintContext['strokeStyle'] = '#000000';
  lineWidth = 1;
  globalAlpha = 1;
  font = '10px sans-serif';
  textBaseline: CanvasTextBaseline = 'alphabetic';
  private stack: Style[] = [];

  private record(op: string, args: unknown[]): void {
    this.commands.push({
      op,
      args,
      fillStyle: String(this.fillStyle),
      strokeStyle: String(this.strokeStyle),
      lineWidth: this.lineWidth,
      globalAlpha: this.globalAlpha,
      font: this.font,
    });
  }

  /** The recorded calls of one kind. */
  calls(op: string): Command[] {
    return this.commands.filter((c) => c.op === op);
  }

  save(): void {
    const { fillStyle, strokeStyle, lineWidth, globalAlpha, font, textBaseline } = this;
    this.stack.push({ fillStyle, strokeStyle, lineWidth, globalAlpha, font, textBaseline });
    this.record('save', []);
  }
  restore(): void {
    Object.assign(this, this.stack.pop());
    this.record('restore', []);
  }
  measureText(text: string): TextMetrics {
    return { width: text.length * CHAR_WIDTH } as TextMetrics;
  }
  clearRect(...args: number[]): void {
    this.record('clearRect', args);
  }
  fillRect(...args: number[]): void {
    this.record('fillRect', args);
  }
  strokeRect(...args: number[]): void {
    this.record('strokeRect', args);
  }
  fillText(...args: unknown[]): void {
    this.record('fillText', args);
  }
  beginPath(): void {
    this.record('beginPath', []);
  }
  closePath(): void {
    this.record('closePath', []);
  }
  moveTo(...args: number[]): void {
    this.record('moveTo', args);
  }
  lineTo(...args: number[]): void {
    this.record('lineTo', args);
  }
  rect(...args: number[]): void {
    this.record('rect', args);
  }
  clip(): void {
    this.record('clip', []);
  }
  stroke(): void {
    this.record('stroke', []);
  }
  fill(): void {
    this.record('fill', []);
  }
}
