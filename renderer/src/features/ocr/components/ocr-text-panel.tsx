import { Fragment, useEffect, useRef } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { matchesQuery } from '../box-geometry';
import type { Granularity } from '../ocr-types';
import { useOcrViewStore } from '../stores/ocr-view-store';
import type { IndexedBox } from './box-overlay';

/** Words start a new line when they sit below the middle of the previous word. */
function startsNewLine(previous: IndexedBox | undefined, current: IndexedBox, granularity: Granularity): boolean {
  if (!previous) return false;
  if (granularity !== 'word') return true;
  const [, py1, , py2] = previous.box.bbox;
  return current.box.bbox[1] > (py1 + py2) / 2;
}

/** The page's text, one button per box; selecting here selects on the page and the reverse. */
export function OcrTextPanel({ boxes, granularity }: { boxes: IndexedBox[]; granularity: Granularity }) {
  const { selected, hovered, query, threshold, select, hover } = useOcrViewStore();
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (selected === null) return;
    container.current?.querySelector<HTMLElement>(`[data-index="${selected}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [selected]);

  if (boxes.length === 0) return <EmptyState icon="▣" title="No text found on this page" />;
  return (
    <div ref={container} className="ocr-text" data-testid="ocr-text-panel">
      {boxes.map((item, i) => {
        const classes = ['ocr-token'];
        if (item.index === selected) classes.push('active');
        if (item.index === hovered) classes.push('hovered');
        if (matchesQuery(item.box.text, query)) classes.push('match');
        if (item.box.confidence < threshold) classes.push('dimmed');
        return (
          <Fragment key={item.index}>
            {startsNewLine(boxes[i - 1], item, granularity) ? <br /> : i > 0 ? ' ' : null}
            <button
              type="button"
              className={classes.join(' ')}
              data-testid="ocr-token"
              data-index={item.index}
              aria-pressed={item.index === selected}
              title={`${(item.box.confidence * 100).toFixed(1)} % confidence`}
              onClick={() => select(item.index === selected ? null : item.index)}
              onMouseEnter={() => hover(item.index)}
              onMouseLeave={() => hover(null)}
            >
              {item.box.text}
            </button>
          </Fragment>
        );
      })}
    </div>
  );
}
