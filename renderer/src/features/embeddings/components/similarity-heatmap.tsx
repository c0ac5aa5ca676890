/** Similarity -1..1 onto a colour: cool and faint for unrelated, warm and strong for alike. */
export function similarityColor(value: number): string {
  const t = Math.max(0, Math.min(1, (value + 1) / 2));
  const hue = 220 - 200 * t;
  const alpha = 0.15 + 0.75 * Math.abs(value);
  return `hsl(${hue.toFixed(0)} 75% 50% / ${alpha.toFixed(2)})`;
}

interface Props {
  labels: string[];
  matrix: number[][];
}

export function SimilarityHeatmap({ labels, matrix }: Props) {
  const short = (text: string) => (text.length > 28 ? `${text.slice(0, 27)}…` : text);
  return (
    <div className="heatmap-wrap">
      <table className="heatmap" aria-label="Cosine similarity matrix">
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Text</span>
            </th>
            {labels.map((label, j) => (
              <th key={j} scope="col" title={label}>
                <span className="heatmap-index">{j + 1}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {matrix.map((row, i) => (
            <tr key={i}>
              <th scope="row" title={labels[i]}>
                <span className="heatmap-index">{i + 1}</span> {short(labels[i])}
              </th>
              {row.map((value, j) => (
                <td
                  key={j}
                  data-testid="similarity-cell"
                  data-row={i}
                  data-col={j}
                  data-value={value.toFixed(4)}
                  style={{ background: similarityColor(value) }}
                  title={`${labels[i]} ↔ ${labels[j]}: ${value.toFixed(4)}`}
                >
                  {value.toFixed(2)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="heatmap-scale" aria-hidden="true">
        <span>-1</span>
        <span
          className="heatmap-gradient"
          style={{ background: `linear-gradient(90deg, ${[-1, -0.5, 0, 0.5, 1].map(similarityColor).join(', ')})` }}
        />
        <span>1</span>
      </div>
    </div>
  );
}
