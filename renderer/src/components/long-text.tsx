import { useState } from 'react';

/** How much of a long text is shown until the user asks for all of it. */
export const LONG_TEXT_PREVIEW_CHARS = 20_000;

/**
 * Plain text that may be huge (a pasted file, a runaway answer): the first 20,000 characters,
 * then "Show all" for the rest, so a megabyte of text costs nothing until someone wants to read it.
 */
export function LongText({
  text,
  className = 'message-text',
  as: Tag = 'div',
  testId,
}: {
  text: string;
  className?: string;
  as?: 'div' | 'pre';
  testId?: string;
}) {
  const [all, setAll] = useState(false);
  const cut = !all && text.length > LONG_TEXT_PREVIEW_CHARS;
  const more = cut && (
    <button type="button" className="btn btn-sm long-text-more" onClick={() => setAll(true)}>
      Show all {text.length.toLocaleString('en-US')} characters
    </button>
  );
  if (Tag === 'pre') {
    return (
      <>
        <pre className={className} data-testid={testId}>
          {cut ? `${text.slice(0, LONG_TEXT_PREVIEW_CHARS)}…` : text}
        </pre>
        {more && <div>{more}</div>}
      </>
    );
  }
  return (
    <div className={className} data-testid={testId}>
      {cut ? `${text.slice(0, LONG_TEXT_PREVIEW_CHARS)}…` : text}
      {more && <div>{more}</div>}
    </div>
  );
}
