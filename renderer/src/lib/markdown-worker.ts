import { markdownToHtml } from './markdown-to-html';

/** One text to format, and its answer; `id` pairs them. */
export interface MarkdownJob {
  id: number;
  source: string;
}
export interface MarkdownDone {
  id: number;
  html: string;
}

// A Worker's entry: formats long model output away from the page's thread (sanitised on return).
self.onmessage = (event: MessageEvent<MarkdownJob>) => {
  const done: MarkdownDone = { id: event.data.id, html: markdownToHtml(event.data.source) };
  postMessage(done);
};
