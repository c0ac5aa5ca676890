/**
 * Text of a table cell that can be as long as a client likes (names, ids, paths, metadata): one
 * line, cut with an ellipsis where it would push the other columns away, the whole value on hover
 * and in what is copied.
 */
export function CellText({ text, className }: { text: string; className?: string }) {
  return (
    <span className={className ? `cell-text ${className}` : 'cell-text'} title={text}>
      {text}
    </span>
  );
}
