import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderMarkdown } from '../lib/render-markdown';
import { LONG_TEXT_PREVIEW_CHARS, LongText } from './long-text';
import { MarkdownView } from './markdown-view';

afterEach(cleanup);

describe('MarkdownView with huge answers', () => {
  it('shows a 200,000-character answer without spaces at once, as plain text, the rest behind "Show all"', () => {
    // Emphasis delimiters are what makes the markdown parser quadratic: this took it over a minute.
    const answer = 'a_'.repeat(100_000);
    const started = performance.now();
    const { container } = render(<MarkdownView source={answer} />);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(container.querySelector('.markdown')).toBeNull();
    expect(screen.getByRole('note').textContent).toContain('200,000 characters');
    expect(container.textContent).toContain(answer.slice(0, LONG_TEXT_PREVIEW_CHARS));
    expect(container.textContent).not.toContain(answer.slice(0, LONG_TEXT_PREVIEW_CHARS + 2));
    fireEvent.click(screen.getByRole('button', { name: 'Show all 200,000 characters' }));
    expect(container.textContent).toContain(answer);
  });

  it('still formats an ordinary answer', () => {
    const { container } = render(<MarkdownView source={'**bold** and `code`'} />);
    expect(container.querySelector('.markdown strong')?.textContent).toBe('bold');
  });
});

describe('renderMarkdown code blocks', () => {
  it('does not guess the language of a long block (every grammar, at every streamed token)', () => {
    const code = 'const a = foo(bar, "baz"); // c\n'.repeat(400);
    const root = document.createElement('div');
    root.innerHTML = renderMarkdown(`\`\`\`\n${code}\`\`\``);
    expect(root.querySelector('code')?.textContent).toBe(code.trimEnd());
    expect(root.querySelectorAll('code span')).toHaveLength(0);
    root.innerHTML = renderMarkdown('```\nconst a = 1;\n```');
    expect(root.querySelectorAll('code span').length).toBeGreaterThan(0);
  });
});

describe('LongText', () => {
  it('shows short text whole, with no button', () => {
    render(<LongText text="hello" />);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText('hello')).toBeTruthy();
  });
});
