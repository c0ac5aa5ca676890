import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fitScale, toDisplayRect, toImageBox } from '../../../../src/features/ocr/box-geometry';
import type { OcrBox } from '../../../../src/features/ocr/ocr-types';
import { useOcrViewStore } from '../../../../src/features/ocr/stores/ocr-view-store';
import { OcrTextPanel } from '../../../../src/features/ocr/components/ocr-text-panel';
import { PageViewer } from '../../../../src/features/ocr/components/page-viewer';
import { BoxOverlay } from '../../../../src/features/ocr/components/box-overlay';

const BOXES: OcrBox[] = [
  { text: 'Invoice', bbox: [40, 30, 160, 60], confidence: 0.96, page: 0 },
  { text: 'Total', bbox: [40, 400, 110, 428], confidence: 0.42, page: 0 },
  { text: '1250.00', bbox: [300, 400, 420, 428], confidence: 0.88, page: 0 },
];
const indexed = BOXES.map((box, index) => ({ box, index }));

const rectsByText = () =>
  Object.fromEntries(screen.getAllByTestId('ocr-box').map((r) => [r.getAttribute('data-text'), r]));

const geometry = (rect: Element) => ['x', 'y', 'width', 'height'].map((a) => Number(rect.getAttribute(a)));

afterEach(cleanup);
beforeEach(() => {
  useOcrViewStore.setState({ zoom: 1, threshold: 0, selected: null, hovered: null, query: '', page: 0 });
});

describe('box geometry', () => {
  it('maps page pixels to displayed pixels and back at several zooms', () => {
    const fit = fitScale(1200, 600);
    expect(fit).toBe(0.5);
    for (const zoom of [0.25, 0.5, 1, 1.5, 2, 4]) {
      const scale = fit * zoom;
      const rect = toDisplayRect([300, 400, 420, 428], scale);
      expect(rect).toEqual({ x: 300 * scale, y: 400 * scale, width: 120 * scale, height: 28 * scale });
      const back = toImageBox(rect, scale);
      back.forEach((v, i) => expect(v).toBeCloseTo([300, 400, 420, 428][i], 9));
    }
  });

  it('never enlarges a page smaller than the viewport, and normalises reversed corners', () => {
    expect(fitScale(400, 900)).toBe(1);
    expect(toDisplayRect([100, 80, 20, 10], 2)).toEqual({ x: 40, y: 20, width: 160, height: 140 });
  });
});

describe('BoxOverlay', () => {
  it('draws every box at page coordinates × scale, with text and confidence attributes', () => {
    for (const scale of [0.5, 1, 2.5]) {
      render(
        <BoxOverlay
          boxes={indexed}
          scale={scale}
          width={600 * scale}
          height={500 * scale}
          threshold={0}
          selected={null}
          query=""
          onSelect={() => {}}
          onHover={() => {}}
        />,
      );
      const rects = rectsByText();
      expect(Object.keys(rects)).toEqual(['Invoice', 'Total', '1250.00']);
      expect(geometry(rects['1250.00'])).toEqual([300 * scale, 400 * scale, 120 * scale, 28 * scale]);
      expect(rects.Total.getAttribute('data-confidence')).toBe('0.420');
      cleanup();
    }
  });

  it('dims boxes under the threshold and marks those matching the search', () => {
    render(
      <BoxOverlay
        boxes={indexed}
        scale={1}
        width={600}
        height={500}
        threshold={0.5}
        selected={null}
        query="tot"
        onSelect={() => {}}
        onHover={() => {}}
      />,
    );
    const rects = rectsByText();
    expect(rects.Total.hasAttribute('data-dimmed')).toBe(true);
    expect(rects.Invoice.hasAttribute('data-dimmed')).toBe(false);
    expect(rects.Total.hasAttribute('data-match')).toBe(true);
    expect(rects['1250.00'].hasAttribute('data-match')).toBe(false);
  });
});

describe('page and text panel selection', () => {
  it('follows the zoom, and selecting a box highlights its word and the reverse', () => {
    render(
      <>
        <PageViewer imageSrc="data:image/png;base64,AA==" pageWidth={600} pageHeight={500} boxes={indexed} />
        <OcrTextPanel boxes={indexed} granularity="word" />
      </>,
    );
    expect(geometry(rectsByText().Invoice)).toEqual([40, 30, 120, 30]);
    fireEvent.click(screen.getByText('Invoice'));
    expect(rectsByText().Invoice.hasAttribute('data-selected')).toBe(true);

    fireEvent.click(rectsByText()['1250.00']);
    expect(screen.getByText('1250.00').hasAttribute('data-selected')).toBe(true);
    expect(screen.getByText('Invoice').hasAttribute('data-selected')).toBe(false);

    act(() => useOcrViewStore.getState().setZoom(2));
    expect(geometry(screen.getAllByTestId('ocr-box')[2])).toEqual([600, 800, 240, 56]);
  });

  it('shows the words as selectable text, not buttons: a drag selects text without selecting a word', () => {
    render(<OcrTextPanel boxes={indexed} granularity="word" />);
    const panel = screen.getByTestId('ocr-text-panel');
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    const range = document.createRange();
    range.setStart(screen.getByText('Invoice').firstChild!, 2);
    range.setEnd(screen.getByText('1250.00').firstChild!, 4);
    window.getSelection()!.removeAllRanges();
    window.getSelection()!.addRange(range);
    expect(window.getSelection()!.toString()).toBe('voiceTotal 1250');
    // The click that ends the drag is not a word click.
    fireEvent.click(screen.getByText('1250.00'));
    expect(useOcrViewStore.getState().selected).toBeNull();
    window.getSelection()!.removeAllRanges();
    fireEvent.click(screen.getByText('1250.00'));
    expect(useOcrViewStore.getState().selected).toBe(2);
    expect(panel.tabIndex).toBe(0);
  });

  it('arrow keys move the word selection, Escape clears it', () => {
    render(<OcrTextPanel boxes={indexed} granularity="word" />);
    const panel = screen.getByRole('group', { name: /Recognised text/ });
    fireEvent.keyDown(panel, { key: 'ArrowRight' });
    expect(useOcrViewStore.getState().selected).toBe(0);
    fireEvent.keyDown(panel, { key: 'ArrowRight' });
    fireEvent.keyDown(panel, { key: 'ArrowRight' });
    fireEvent.keyDown(panel, { key: 'ArrowRight' });
    expect(screen.getByText('1250.00').hasAttribute('data-selected')).toBe(true);
    fireEvent.keyDown(panel, { key: 'ArrowLeft' });
    expect(useOcrViewStore.getState().selected).toBe(1);
    fireEvent.keyDown(panel, { key: 'Escape' });
    expect(useOcrViewStore.getState().selected).toBeNull();
  });

  it('puts words of a lower line on a new line of the text panel', () => {
    render(<OcrTextPanel boxes={indexed} granularity="word" />);
    expect(screen.getByTestId('ocr-text-panel').textContent).toBe('InvoiceTotal 1250.00');
    expect(screen.getByTestId('ocr-text-panel').querySelectorAll('br')).toHaveLength(1);
  });
});
