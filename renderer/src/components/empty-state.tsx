import type { ReactNode } from 'react';

export function EmptyState({ icon = '◌', title, children }: { icon?: string; title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <span className="empty-icon" aria-hidden="true">
        {icon}
      </span>
      <strong>{title}</strong>
      {children}
    </div>
  );
}
