import { useMemo, type MouseEvent } from 'react';
import { renderMarkdown } from '../lib/render-markdown';

export function MarkdownView({ source }: { source: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
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
  // renderMarkdown escapes raw HTML and unsafe links and sanitises its output with DOMPurify.
  return <div className="markdown" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}
