import type { ReactNode } from 'react';

export interface RowAction {
  label: string;
  /** The button's accessible name, which names the row's item ("Edit up"). */
  name: string;
  onClick(): void;
  danger?: boolean;
  disabled?: boolean;
}

/** The buttons of a table row; `false` leaves an action out. Nothing at all when none is left. */
export function RowActions({
  actions,
  className,
  children,
}: {
  actions: readonly (RowAction | false)[];
  className?: string;
  /** What belongs to the actions besides their buttons (their dialogs, an error). */
  children?: ReactNode;
}) {
  if (!children && actions.every((action) => action === false)) return null;
  return (
    <div className={className ? `table-actions ${className}` : 'table-actions'}>
      {/* Keyed by place, as written-out buttons would be: a button whose label changes keeps its focus. */}
      {actions.map(
        (action, place) =>
          action && (
            <button
              key={place}
              type="button"
              className={action.danger ? 'btn btn-sm btn-danger' : 'btn btn-sm'}
              disabled={action.disabled}
              onClick={action.onClick}
              aria-label={action.name}
            >
              {action.label}
            </button>
          ),
      )}
      {children}
    </div>
  );
}
