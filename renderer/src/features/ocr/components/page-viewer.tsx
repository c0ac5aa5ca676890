import { useEffect, useLayoutEffect, useRef, useState, type PointerEvent, type WheelEvent } from 'react';
import { fitScale, toDisplayRect } from '../box-geometry';
import { useOcrViewStore } from '../stores/ocr-view-store';
import type { OcrTable } from '../ocr-types';
import { BoxOverlay, type IndexedBox } from './box-overlay';
import { TableOverlay } from './table-overlay';

interface Props {
  imageSrc: string;
  pageWidth: number;
  pageHeight: number;
  boxes: IndexedBox[];
  /** The page's tables: their cell grid is drawn under the word boxes. */
  tables?: OcrTable[];
}

const VIEWER_PADDING = 16;

/**
 * The page image at fit × zoom with its boxes on top. Drag to pan, Ctrl+wheel to zoom; the
 * selected box is scrolled into view when it changes.
 */
export function PageViewer({ imageSrc, pageWidth, pageHeight, boxes, tables = [] }: Props) {
  const { zoom, setZoom, threshold, selected, hovered, query, select, hover } = useOcrViewStore();
  const viewport = useRef<HTMLDivElement>(null);
  const [viewportWidth, setViewportWidth] = useState(0);
  const drag = useRef<{ x: number; y: number; left: number; top: number; moved: boolean } | null>(null);

  useLayoutEffect(() => {
    const element = viewport.current;
    if (!element) return;
    const measure = () => setViewportWidth(element.clientWidth - VIEWER_PADDING * 2);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const scale = fitScale(pageWidth, viewportWidth) * zoom;
  const width = pageWidth * scale;
  const height = pageHeight * scale;

  useEffect(() => {
    const element = viewport.current;
    const target = boxes.find((b) => b.index === selected);
    if (!element || !target) return;
    const rect = toDisplayRect(target.box.bbox, scale);
    const left = rect.x + VIEWER_PADDING;
    const top = rect.y + VIEWER_PADDING;
    const visible =
      left >= element.scrollLeft &&
      left + rect.width <= element.scrollLeft + element.clientWidth &&
      top >= element.scrollTop &&
      top + rect.height <= element.scrollTop + element.clientHeight;
    if (!visible) element.scrollTo?.({ left: left - element.clientWidth / 3, top: top - element.clientHeight / 3 });
  }, [selected, boxes, scale]);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    const element = viewport.current;
    if (!element || e.button !== 0) return;
    drag.current = { x: e.clientX, y: e.clientY, left: element.scrollLeft, top: element.scrollTop, moved: false };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const element = viewport.current;
    const d = drag.current;
    if (!element || !d) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (!d.moved && Math.hypot(dx, dy) < 4) return;
    d.moved = true;
    element.scrollLeft = d.left - dx;
    element.scrollTop = d.top - dy;
  };
  const onPointerUp = () => {
    // A drag that moved is a pan: swallow the click it would otherwise produce on a box.
    const moved = drag.current?.moved;
    drag.current = null;
    if (moved) {
      const swallow = (ev: MouseEvent) => ev.stopPropagation();
      window.addEventListener('click', swallow, { capture: true, once: true });
      setTimeout(() => window.removeEventListener('click', swallow, { capture: true }), 0);
    }
  };
  const onWheel = (e: WheelEvent<HTMLDivElement>) => {
    if (!e.ctrlKey && !e.metaKey) return;
    e.preventDefault();
    setZoom(zoom * (e.deltaY < 0 ? 1.15 : 1 / 1.15));
  };

  const hoveredBox = boxes.find((b) => b.index === hovered);
  const hoverRect = hoveredBox && toDisplayRect(hoveredBox.box.bbox, scale);

  return (
    <div
      ref={viewport}
      className={`ocr-viewport${drag.current?.moved ? ' panning' : ''}`}
      data-testid="ocr-viewport"
      data-scale={scale}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerLeave={() => (drag.current = null)}
      onWheel={onWheel}
      onClick={() => select(null)}
    >
      <div className="ocr-stage" style={{ width, height }}>
        <img
          src={imageSrc}
          alt="Page being inspected"
          data-testid="ocr-page-image"
          width={width}
          height={height}
          draggable={false}
        />
        {tables.length > 0 && <TableOverlay tables={tables} scale={scale} width={width} height={height} />}
        <BoxOverlay
          boxes={boxes}
          scale={scale}
          width={width}
          height={height}
          threshold={threshold}
          selected={selected}
          query={query}
          onSelect={select}
          onHover={hover}
        />
        {hoveredBox && hoverRect && (
          <div
            className="ocr-tooltip"
            role="tooltip"
            style={{ left: hoverRect.x, top: hoverRect.y + hoverRect.height + 4 }}
          >
            <strong>{hoveredBox.box.text}</strong>
            <span>{(hoveredBox.box.confidence * 100).toFixed(1)} %</span>
          </div>
        )}
      </div>
    </div>
  );
}
