import type { BoxCoordinates, GrayImage } from './ocr-page.js';
import { median } from './box-geometry.js';

/** A cell this far darker than the paper, or this busy, holds picture. */
const INK_CONTRAST = 45;
const MIN_TEXTURE = 18;
/** Part of a candidate's box its picture cells must fill (a table's rules or a frame do not). */
const MIN_FILL = 0.35;

/**
 * The paper's brightness around each cell: the brightest cell within a sixth of the page either way,
 * so light that falls off across a scan is not taken for ink (a separable running maximum).
 */
function localPaper(means: Float32Array, columns: number, rows: number): Float32Array {
  const reachX = Math.max(2, Math.round(columns / 6));
  const reachY = Math.max(2, Math.round(rows / 6));
  const across = new Float32Array(means.length);
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      let best = 0;
      for (let c = Math.max(0, column - reachX); c <= Math.min(columns - 1, column + reachX); c++)
        best = Math.max(best, means[row * columns + c]);
      across[row * columns + column] = best;
    }
  }
  const paper = new Float32Array(means.length);
  for (let column = 0; column < columns; column++) {
    for (let row = 0; row < rows; row++) {
      let best = 0;
      for (let r = Math.max(0, row - reachY); r <= Math.min(rows - 1, row + reachY); r++)
        best = Math.max(best, across[r * columns + column]);
      paper[row * columns + column] = best;
    }
  }
  return paper;
}

/** An edge row or column of cells at least this full of picture is the dark margin a scanner leaves around the paper. */
const BORDER_FILL = 0.6;

/**
 * Clears the scanner's dark margins: from each edge inward, rows (columns) of cells mostly picture. A
 * margin is no figure, and a photo that touches one would otherwise grow into a region as wide as the
 * page, too empty to count as a figure.
 */
function clearScanBorders(picture: Uint8Array, columns: number, rows: number): void {
  const rowFill = (row: number) =>
    picture.subarray(row * columns, (row + 1) * columns).reduce((sum, v) => sum + v, 0) / columns;
  const columnFill = (column: number) => {
    let sum = 0;
    for (let row = 0; row < rows; row++) sum += picture[row * columns + column];
    return sum / rows;
  };
  const clearRow = (row: number) => picture.fill(0, row * columns, (row + 1) * columns);
  const clearColumn = (column: number) => {
    for (let row = 0; row < rows; row++) picture[row * columns + column] = 0;
  };
  // A margin is a thin strip: at most a sixth of the page from its edge.
  const rowReach = Math.ceil(rows / 6);
  const columnReach = Math.ceil(columns / 6);
  for (let row = 0; row < rowReach && rowFill(row) >= BORDER_FILL; row++) clearRow(row);
  for (let row = rows - 1; row >= rows - rowReach && rowFill(row) >= BORDER_FILL; row--) clearRow(row);
  for (let column = 0; column < columnReach && columnFill(column) >= BORDER_FILL; column++) clearColumn(column);
  for (let column = columns - 1; column >= columns - columnReach && columnFill(column) >= BORDER_FILL; column--)
    clearColumn(column);
}

/**
 * Figure regions of a page image: large areas with ink that no recognised word covers (photos,
 * charts, drawings). The page is cut into small cells; a cell is picture when it is much darker than
 * the paper around it or textured beyond the page's own noise, and no word box (widened by half its height)
 * touches it; the dark margins of a scan are not picture. Touching picture cells make a figure; one smaller than `minSize` pixels either way,
 * or mostly empty, is dropped.
 */
export function findFigures(image: GrayImage, wordBoxes: BoxCoordinates[], minSize: number): BoxCoordinates[] {
  const cell = Math.max(4, Math.round(Math.min(image.width, image.height) / 150));
  const columns = Math.ceil(image.width / cell);
  const rows = Math.ceil(image.height / cell);
  const means = new Float32Array(columns * rows);
  const spreads = new Float32Array(columns * rows);
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      let sum = 0;
      let squares = 0;
      let count = 0;
      for (let y = row * cell; y < Math.min(image.height, (row + 1) * cell); y++) {
        for (let x = column * cell; x < Math.min(image.width, (column + 1) * cell); x++) {
          const value = image.data[y * image.width + x];
          sum += value;
          squares += value * value;
          count++;
        }
      }
      const mean = sum / count;
      means[row * columns + column] = mean;
      spreads[row * columns + column] = Math.sqrt(Math.max(0, squares / count - mean * mean));
    }
  }
  const paper = localPaper(means, columns, rows);
  const noise = median(Array.from(spreads));
  const picture = new Uint8Array(columns * rows);
  for (let at = 0; at < picture.length; at++) {
    picture[at] = paper[at] - means[at] > INK_CONTRAST || spreads[at] > Math.max(MIN_TEXTURE, 3 * noise) ? 1 : 0;
  }
  clearScanBorders(picture, columns, rows);
  for (const box of wordBoxes) {
    const pad = (box[3] - box[1]) / 2;
    const fromColumn = Math.max(0, Math.floor((box[0] - pad) / cell));
    const toColumn = Math.min(columns - 1, Math.floor((box[2] + pad) / cell));
    for (
      let row = Math.max(0, Math.floor((box[1] - pad) / cell));
      row <= Math.min(rows - 1, Math.floor((box[3] + pad) / cell));
      row++
    ) {
      picture.fill(0, row * columns + fromColumn, row * columns + toColumn + 1);
    }
  }

  const label = new Int32Array(columns * rows).fill(-1);
  const figures: BoxCoordinates[] = [];
  for (let start = 0; start < picture.length; start++) {
    if (!picture[start] || label[start] >= 0) continue;
    const stack = [start];
    label[start] = start;
    let [x1, y1, x2, y2, filled] = [columns, rows, 0, 0, 0];
    while (stack.length) {
      const at = stack.pop()!;
      const column = at % columns;
      const row = (at - column) / columns;
      filled++;
      x1 = Math.min(x1, column);
      y1 = Math.min(y1, row);
      x2 = Math.max(x2, column);
      y2 = Math.max(y2, row);
      // Neighbours up to two cells away, so a figure with thin gaps stays one.
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          const c = column + dx;
          const r = row + dy;
          if (c < 0 || r < 0 || c >= columns || r >= rows) continue;
          const next = r * columns + c;
          if (picture[next] && label[next] < 0) {
            label[next] = start;
            stack.push(next);
          }
        }
      }
    }
    const box: BoxCoordinates = [
      x1 * cell,
      y1 * cell,
      Math.min(image.width, (x2 + 1) * cell),
      Math.min(image.height, (y2 + 1) * cell),
    ];
    const area = (x2 - x1 + 1) * (y2 - y1 + 1);
    if (box[2] - box[0] >= minSize && box[3] - box[1] >= minSize && filled / area >= MIN_FILL) figures.push(box);
  }
  return figures.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}
