import DOMPurify from 'dompurify';

/**
 * HTML built from model output, made safe to inject: no script, style, form or embedded content,
 * no event handler attributes, no javascript: or data: links. The markdown renderer already
 * escapes raw HTML; this is the guarantee that holds even when it misses something.
 */
export function safeHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'textarea', 'select', 'img', 'svg', 'math', 'iframe', 'object', 'embed'],
    ADD_ATTR: ['target'],
  });
}
