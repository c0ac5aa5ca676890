import { confidenceColor, matchesQuery, toDisplayRect } from '../box-geometry';
import type { OcrBox } from '../ocr-types';

export interface IndexedBox {
  box: OcrBox;
  /** Position in the result's `bboxes` array, the id used for selection. */
  index: number;
}

interface Props {
  boxes: IndexedBox[];
  scale: number;
  width: number;
  height: number;
  threshold: number;
  selected: number | null;
  query: string;
  onSelect(index: number): void;
  onHover(index: number | null): void;
}

/** Every box of the page drawn over its image, in displayed pixels (page pixels × scale). */
export function BoxOverlay({ boxes, scale, width, height, threshold, selected, query, onSelect, onHover }: Props) {
  return (
    <svg className="ocr-overlay" width={width} height={height} viewBox={`0 0 ${width} ${height}`} aria-hidden="true">
      {boxes.map(({ box, index }) => {
        const rect = toDisplayRect(box.bbox, scale);
        const color = confidenceColor(box.confidence);
        const dimmed = box.confidence < threshold;
        const match = matchesQuery(box.text, query);
        const isSelected = index === selected;
        return (
          <rect
            key={index}
            data-testid="ocr-box"
            data-index={index}
            data-text={box.text}
            data-confidence={box.confidence.toFixed(3)}
            data-selected={isSelected || undefined}
            data-match={match || undefined}
            data-dimmed={dimmed || undefined}
            className={`ocr-box${isSelected ? ' selected' : ''}${match ? ' match' : ''}${dimmed ? ' dimmed' : ''}`}
            x={rect.x}
            y={rect.y}
            width={Math.max(rect.width, 1)}
            height={Math.max(rect.height, 1)}
            stroke={color}
            fill={color}
            onClick={(e) => {
              e.stopPropagation();
              onSelect(index);
            }}
            onMouseEnter={() => onHover(index)}
            onMouseLeave={() => onHover(null)}
          >
            <title>{`${box.text} — ${Math.round(box.confidence * 100)}%`}</title>
          </rect>
        );
      })}
    </svg>
  );
}
