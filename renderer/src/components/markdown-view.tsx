import { useMemo } from 'react';
import { renderMarkdown } from '../lib/render-markdown';

export function MarkdownView({ source }: { source: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  // renderMarkdown escapes raw HTML and unsafe links, so the output is safe to inject.
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
