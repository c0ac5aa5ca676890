import type { MouseEvent } from 'react';
import { useMarkdownHtml } from '../lib/use-markdown-html';
import { LongText } from './long-text';

const PLAIN_NOTE = {
  too_long: (n: number) => `${n.toLocaleString('en-US')} characters: shown as plain text, without formatting.`,
  failed: () => 'Formatting this text took too long: shown as plain text.',
} as const;

export function MarkdownView({ source }: { source: string }) {
  const shown = useMarkdownHtml(source);
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
  if (shown.kind === 'plain') {
    // While the worker formats it, the text shows as it is.
    if (shown.reason === 'formatting') return <LongText text={shown.text} className="markdown message-text" />;
    return (
      <div className="stack">
        <p className="small muted" role="note">
          {PLAIN_NOTE[shown.reason](shown.text.length)}
        </p>
        <LongText text={shown.text} />
      </div>
    );
  }
  // The HTML is formatted with raw HTML escaped and sanitised with DOMPurify (see renderMarkdown).
  return <div className="markdown" onClick={onClick} dangerouslySetInnerHTML={{ __html: shown.html }} />;
}
