import { markdownToHtml } from './markdown-to-html';
import { safeHtml } from './safe-html';

/** Model output as HTML that is safe to inject: formatted, then sanitised with DOMPurify. */
export const renderMarkdown = (source: string): string => safeHtml(markdownToHtml(source));
