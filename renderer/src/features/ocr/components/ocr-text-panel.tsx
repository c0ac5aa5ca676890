import { Fragment, useEffect, useRef, type KeyboardEvent } from 'react';
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

/** True while the user has text selected inside `container`: a click that ends a drag-select is not a word click. */
function selectingTextIn(container: HTMLElement | null): boolean {
  const selection = window.getSelection();
  return !!container && !!selection && !selection.isCollapsed && container.contains(selection.anchorNode);
}

/**
 * The page's text as text (select and copy it like any other), each box a word that highlights on
 * hover and selects on click, here and on the page; arrow keys move the selection from word to word.
 */
export function OcrTextPanel({ boxes, granularity }: { boxes: IndexedBox[]; granularity: Granularity }) {
  const { selected, hovered, query, threshold, select, hover } = useOcrViewStore();
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (selected === null) return;
    container.current?.querySelector<HTMLElement>(`[data-index="${selected}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [selected]);

  if (boxes.length === 0) return <EmptyState icon="▣" title="No text found on this page" />;
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const position = boxes.findIndex((item) => item.index === selected);
    const step =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? -1
          : 0;
    if (step !== 0) {
      event.preventDefault();
      const next =
        position === -1 ? (step > 0 ? 0 : boxes.length - 1) : Math.min(Math.max(position + step, 0), boxes.length - 1);
      select(boxes[next].index);
    } else if (event.key === 'Escape' && selected !== null) {
      select(null);
    }
  };
  return (
    <div
      ref={container}
      className="ocr-text"
      data-testid="ocr-text-panel"
      tabIndex={0}
      role="group"
      aria-label="Recognised text (arrow keys select a word)"
      onKeyDown={onKeyDown}
    >
      {boxes.map((item, i) => {
        const classes = ['ocr-token'];
        if (item.index === hovered) classes.push('hovered');
        if (matchesQuery(item.box.text, query)) classes.push('match');
        if (item.box.confidence < threshold) classes.push('dimmed');
        return (
          <Fragment key={item.index}>
            {startsNewLine(boxes[i - 1], item, granularity) ? <br /> : i > 0 ? ' ' : null}
            <span
              className={classes.join(' ')}
              data-testid="ocr-token"
              data-index={item.index}
              data-selected={item.index === selected || undefined}
              title={`${(item.box.confidence * 100).toFixed(1)} % confidence`}
              onClick={() => {
                if (!selectingTextIn(container.current)) select(item.index === selected ? null : item.index);
              }}
              onMouseEnter={() => hover(item.index)}
              onMouseLeave={() => hover(null)}
            >
              {item.box.text}
            </span>
          </Fragment>
        );
      })}
    </div>
  );
}
