export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading-line" role="status">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}
