import type { Granularity } from '../ocr-types';
import { useOcrViewStore } from '../stores/ocr-view-store';
import { ConfidenceLegend } from './confidence-legend';

const GRANULARITIES: Granularity[] = ['word', 'line', 'block'];

interface Props {
  pageCount: number;
  onGranularity(granularity: Granularity): void;
  busy: boolean;
}

export function OcrToolbar({ pageCount, onGranularity, busy }: Props) {
  const { granularity, threshold, setThreshold, zoom, setZoom, page, setPage, query, setQuery } = useOcrViewStore();
  return (
    <div className="card ocr-toolbar" role="toolbar" aria-label="Inspector controls">
      <div className="segmented" role="group" aria-label="Granularity">
        {GRANULARITIES.map((g) => (
          <button
            key={g}
            type="button"
            aria-pressed={granularity === g}
            disabled={busy}
            onClick={() => onGranularity(g)}
          >
            {g[0].toUpperCase() + g.slice(1)}s
          </button>
        ))}
      </div>
      <label className="field ocr-threshold">
        <span>Confidence ≥ {Math.round(threshold * 100)} %</span>
        <input
          type="range"
          min={0}
          max={1}
          step={0.01}
          value={threshold}
          aria-label="Confidence threshold"
          onChange={(e) => setThreshold(Number(e.target.value))}
        />
      </label>
      <ConfidenceLegend />
      <div className="row" role="group" aria-label="Zoom">
        <button
          type="button"
          className="btn btn-sm btn-icon"
          aria-label="Zoom out"
          onClick={() => setZoom(zoom / 1.25)}
        >
          −
        </button>
        <button
          type="button"
          className="btn btn-sm"
          aria-label="Fit to width"
          onClick={() => setZoom(1)}
          title="Fit to width"
        >
          {Math.round(zoom * 100)} %
        </button>
        <button type="button" className="btn btn-sm btn-icon" aria-label="Zoom in" onClick={() => setZoom(zoom * 1.25)}>
          +
        </button>
      </div>
      {pageCount > 1 && (
        <div className="row" role="group" aria-label="Pages">
          <button
            type="button"
            className="btn btn-sm"
            aria-label="Previous page"
            disabled={page <= 0}
            onClick={() => setPage(page - 1)}
          >
            ‹
          </button>
          <span className="small" aria-live="polite">
            Page {page + 1} / {pageCount}
          </span>
          <button
            type="button"
            className="btn btn-sm"
            aria-label="Next page"
            disabled={page >= pageCount - 1}
            onClick={() => setPage(page + 1)}
          >
            ›
          </button>
        </div>
      )}
      <input
        className="input ocr-search"
        type="search"
        placeholder="Search text…"
        aria-label="Search in the text"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
    </div>
  );
}
