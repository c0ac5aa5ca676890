import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/lib/render-markdown';
import { safeHtml } from '../../src/lib/safe-html';

const parse = (html: string) => {
  const root = document.createElement('div');
  root.innerHTML = html;
  return root;
};

describe('safeHtml', () => {
  it('strips scripts, event handlers, javascript: links and embedded content', () => {
    const root = parse(
      safeHtml(
        '<p onclick="alert(1)">hi</p><script>alert(2)</script><img src="x" onerror="alert(3)"><a href="javascript:alert(4)">a</a>' +
          '<a href="JaVaScRiPt:alert(5)">b</a><a href="data:text/html,<script>alert(6)</script>">c</a><svg onload="alert(7)"></svg>' +
          '<iframe src="https://example.com"></iframe><style>body{display:none}</style>',
      ),
    );
    expect(root.querySelector('script, img, svg, iframe, style')).toBeNull();
    expect(root.querySelector('[onclick], [onerror], [onload]')).toBeNull();
    for (const link of root.querySelectorAll('a')) expect(link.getAttribute('href')).toBeNull();
    expect(root.textContent).toContain('hi');
  });

  it('keeps safe links with their target', () => {
    const root = parse(
      safeHtml('<a href="https://example.com/x" target="_blank" rel="noreferrer">x</a><a href="/ui/chat">y</a>'),
    );
    const [external, local] = root.querySelectorAll('a');
    expect(external.getAttribute('href')).toBe('https://example.com/x');
    expect(external.getAttribute('target')).toBe('_blank');
    expect(local.getAttribute('href')).toBe('/ui/chat');
  });
});

describe('renderMarkdown', () => {
  it('shows raw HTML and unsafe links in model output as text, never as elements', () => {
    const root = parse(
      renderMarkdown(
        '<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n[click](javascript:alert(3)) and <a href="javascript:alert(4)">a</a>',
      ),
    );
    expect(root.querySelector('script, img, [onerror]')).toBeNull();
    expect(root.querySelector('a')).toBeNull();
    expect(root.textContent).toContain('<script>alert(1)</script>');
  });

  it('keeps highlighted code with its Copy button, tables and links', () => {
    const root = parse(
      renderMarkdown('```ts\nconst a = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[docs](https://example.com)'),
    );
    expect(root.querySelector('pre code.hljs.language-ts .hljs-keyword')?.textContent).toBe('const');
    expect(root.querySelector('button[data-copy-code]')?.textContent).toBe('Copy');
    expect(root.querySelectorAll('table td')).toHaveLength(2);
    expect(root.querySelector('a')?.getAttribute('target')).toBe('_blank');
  });
});
