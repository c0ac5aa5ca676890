import { useDeferredValue, useMemo, type MouseEvent } from 'react';
import { renderMarkdown } from '../lib/render-markdown';
import { LongText } from './long-text';

/**
 * Above this, text is shown as plain text: markdown parsing and code highlighting grow faster than
 * the text (a 200,000-character answer held the page for seconds at each streamed token).
 */
export const MARKDOWN_MAX_CHARS = 20_000;

export function MarkdownView({ source }: { source: string }) {
  // While an answer streams, React may skip to the latest text instead of rendering every token.
  const deferred = useDeferredValue(source);
  const html = useMemo(() => (deferred.length > MARKDOWN_MAX_CHARS ? null : renderMarkdown(deferred)), [deferred]);
  // Code blocks carry a Copy button (in the rendered HTML); one listener serves them all.
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>('[data-copy-code]');
    const code = button?.parentElement?.querySelector('code')?.textContent;
    if (!button || code === undefined || code === null) return;
    void navigator.clipboard?.writeText(code).then(() => {
      button.textContent = 'Copied';
      setTimeout(() => (button.textContent = 'Copy'), 1500);
    });
  };
  if (html === null) {
    return (
      <div className="stack">
        <p className="small muted" role="note">
          {deferred.length.toLocaleString('en-US')} characters: shown as plain text, without formatting.
        </p>
        <LongText text={deferred} />
      </div>
    );
  }
  // renderMarkdown escapes raw HTML and unsafe links and sanitises its output with DOMPurify.
  return <div className="markdown" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}
