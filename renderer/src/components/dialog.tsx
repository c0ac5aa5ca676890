import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

interface Props {
  title: string;
  onClose(): void;
  children: ReactNode;
  wide?: boolean;
  /** Slides in from the right at full height, for details beside a list. */
  drawer?: boolean;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Keeps Tab and Shift+Tab cycling inside the dialog, so keyboard focus never reaches the page behind it. */
function trapTab(event: KeyboardEvent, container: HTMLElement) {
  const focusable = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => !el.closest('[hidden], [inert]'),
  );
  if (focusable.length === 0) {
    event.preventDefault();
    container.focus();
    return;
  }
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  const active = document.activeElement;
  const inside = active instanceof Node && container.contains(active);
  if (event.shiftKey && (active === first || active === container || !inside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !inside)) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * Makes everything on the page but `keep` inert (no focus, no clicks, hidden from assistive
 * technology) and returns how to undo it; elements already inert (an open dialog under a nested
 * one) are left as they are.
 */
function inertOthers(keep: HTMLElement): () => void {
  const others = [...document.body.children].filter((el) => el !== keep && !el.hasAttribute('inert'));
  for (const el of others) el.setAttribute('inert', '');
  return () => {
    for (const el of others) el.removeAttribute('inert');
  };
}

/** Whether another dialog was opened on top of the one whose backdrop is `backdrop`. */
function openedAfter(backdrop: Element): boolean {
  for (let next = backdrop.nextElementSibling; next; next = next.nextElementSibling)
    if (next.classList.contains('dialog-backdrop')) return true;
  return false;
}

/**
 * A modal dialog, rendered at the end of <body>: the page behind it is inert while it is open,
 * focus moves in on open and stays inside (Tab cycles), Escape and the backdrop close it, and focus
 * returns to where it was on close.
 */
export function Dialog({ title, onClose, children, wide, drawer }: Props) {
  const backdrop = useRef<HTMLDivElement>(null);
  const ref = useRef<HTMLDivElement>(null);
  // The latest onClose without re-running the effect (which would pull focus back) on every render.
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  // A layout effect: the page must be inert before the browser paints or takes the next key.
  useLayoutEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const restore = backdrop.current ? inertOthers(backdrop.current) : () => {};
    // A field with autoFocus already took focus; otherwise the dialog itself takes it.
    if (!ref.current?.contains(document.activeElement)) ref.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      // A dialog opened from this one (its backdrop comes later in <body>) takes the keys while it is open.
      if (backdrop.current && openedAfter(backdrop.current)) return;
      if (event.key === 'Escape') onCloseRef.current();
      else if (event.key === 'Tab' && ref.current) trapTab(event, ref.current);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      restore();
      previous?.focus();
    };
  }, []);
  return createPortal(
    <div
      ref={backdrop}
      className={`dialog-backdrop${drawer ? ' dialog-backdrop-drawer' : ''}`}
      onMouseDown={(e) => e.target === e.currentTarget && onClose()}
    >
      <div
        ref={ref}
        className={`dialog${drawer ? ' dialog-drawer' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-label={title}
        tabIndex={-1}
        style={wide ? { width: 'min(1200px, 94vw)' } : undefined}
      >
        <div className="dialog-header">
          <h2>{title}</h2>
          <button type="button" className="btn btn-ghost btn-icon" aria-label="Close" onClick={onClose}>
            ✕
          </button>
        </div>
        {children}
      </div>
    </div>,
    document.body,
  );
}
