import { Marked } from 'marked';
import hljs from 'highlight.js/lib/common';

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const safeHref = (href: string): string | null => (/^(https?:|mailto:|#|\/)/i.test(href) ? href : null);

/**
 * Guessing a block's language tries every grammar: 0.2 s for 5,000 characters, 2.6 s for 50,000,
 * and again at every streamed token. Longer blocks without a language are shown unhighlighted.
 */
const AUTO_HIGHLIGHT_MAX_CHARS = 2_000;

/**
 * Markdown to HTML for model output, with no DOM (it also runs in a worker). Raw HTML in the text is
 * shown as text, never injected, and links keep only safe schemes. An unfinished code fence
 * mid-stream still renders as a code block. The result is not sanitised yet: see renderMarkdown.
 */
const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html: ({ text }) => escapeHtml(text),
    code: ({ text, lang }) => {
      const language = lang && hljs.getLanguage(lang) ? lang : undefined;
      const highlighted = language
        ? hljs.highlight(text, { language, ignoreIllegals: true }).value
        : text.length <= AUTO_HIGHLIGHT_MAX_CHARS
          ? hljs.highlightAuto(text).value
          : escapeHtml(text);
      return `<pre class="code-with-copy"><button type="button" class="btn btn-sm code-copy" data-copy-code aria-label="Copy code">Copy</button><code class="hljs${language ? ` language-${escapeHtml(language)}` : ''}">${highlighted}</code></pre>`;
    },
    link: ({ href, text }) => {
      const target = safeHref(href);
      return target
        ? `<a href="${escapeHtml(target)}" target="_blank" rel="noreferrer">${escapeHtml(text)}</a>`
        : escapeHtml(text);
    },
    image: ({ text }) => escapeHtml(text),
  },
});

export function markdownToHtml(source: string): string {
  return marked.parse(source, { async: false });
}
