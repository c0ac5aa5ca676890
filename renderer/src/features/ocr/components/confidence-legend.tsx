import { confidenceColor } from '../box-geometry';

export function ConfidenceLegend() {
  const stops = [0, 0.25, 0.5, 0.75, 1].map((c) => `${confidenceColor(c)} ${c * 100}%`).join(', ');
  return (
    <div className="confidence-legend" aria-label="Confidence colour scale: red is 0 %, green is 100 %">
      <span>0 %</span>
      <span className="confidence-gradient" style={{ background: `linear-gradient(90deg, ${stops})` }} />
      <span>100 %</span>
    </div>
  );
}
