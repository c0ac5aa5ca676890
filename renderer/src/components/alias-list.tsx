import { useState } from 'react';

/** Aliases shown before "+N more". */
export const SHOWN_ALIASES = 2;

/**
 * A model's other names (a built-in model answers to a dozen): the first two, then "+N more", which
 * shows them all; the whole list is on hover and in what is copied.
 */
export function AliasList({ aliases, prefix = '' }: { aliases: readonly string[]; prefix?: string }) {
  const [open, setOpen] = useState(false);
  if (aliases.length === 0) return null;
  const hidden = aliases.length - SHOWN_ALIASES;
  const shown = open || hidden <= 0 ? aliases : aliases.slice(0, SHOWN_ALIASES);
  return (
    <div className="small faint alias-list" title={aliases.join(', ')} data-testid="alias-list">
      {prefix}
      {shown.join(', ')}
      {hidden > 0 && (
        <button type="button" className="link-button alias-more" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'show fewer' : `+${hidden} more`}
        </button>
      )}
    </div>
  );
}
