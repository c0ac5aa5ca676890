import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createWorkerMarkdownRenderer,
  MarkdownRendererTestProvider,
  type MarkdownRenderer,
} from '../../src/lib/markdown-renderer';
import type { MarkdownDone, MarkdownJob } from '../../src/lib/markdown-worker';
import { renderMarkdown } from '../../src/lib/render-markdown';
import { LONG_TEXT_PREVIEW_CHARS, LongText } from '../../src/components/long-text';
import { MarkdownView } from '../../src/components/markdown-view';

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

describe('MarkdownView with a markdown worker', () => {
  const longAnswer = `**Long** answer ${'word '.repeat(1_000)}`;

  it('formats longer text in the worker: shown plain until it answers, then formatted, never parsed in place', async () => {
    let answer: (html: string) => void = () => {};
    const renderer: MarkdownRenderer = {
      render: vi.fn(() => new Promise<string>((resolve) => (answer = resolve))),
      close: () => {},
    };
    const { container } = render(
      <MarkdownRendererTestProvider value={renderer}>
        <MarkdownView source={longAnswer} />
      </MarkdownRendererTestProvider>,
    );
    expect(renderer.render).toHaveBeenCalledWith(longAnswer);
    expect(container.querySelector('strong')).toBeNull();
    expect(container.textContent).toContain('**Long** answer');
    await act(async () => answer(renderMarkdown(longAnswer)));
    expect(container.querySelector('.markdown strong')?.textContent).toBe('Long');
  });

  it('sends only the newest text while a job runs, and shows text plain with a note when the worker gives up', async () => {
    const answers: ((html: string) => void)[] = [];
    let fail: (error: Error) => void = () => {};
    const renderer: MarkdownRenderer = {
      render: vi.fn(
        (source: string) =>
          new Promise<string>(
            (resolve, reject) => (
              (answers[answers.length] = () => resolve(`<p>${source.length}</p>`)),
              (fail = reject)
            ),
          ),
      ),
      close: () => {},
    };
    const view = (source: string) => (
      <MarkdownRendererTestProvider value={renderer}>
        <MarkdownView source={source} />
      </MarkdownRendererTestProvider>
    );
    const { container, rerender } = render(view(longAnswer));
    rerender(view(`${longAnswer} more`));
    rerender(view(`${longAnswer} more and more`));
    expect(renderer.render).toHaveBeenCalledTimes(1);
    await act(async () => answers[0]('ignored'));
    expect(renderer.render).toHaveBeenCalledTimes(2);
    expect(renderer.render).toHaveBeenLastCalledWith(`${longAnswer} more and more`);
    await act(async () => fail(new Error('Formatting took longer than 10 s.')));
    expect(screen.getByRole('note').textContent).toContain('took too long');
    expect(container.textContent).toContain('more and more');
  });
});

describe('createWorkerMarkdownRenderer', () => {
  class FakeWorker {
    onmessage: ((event: MessageEvent<MarkdownDone>) => void) | null = null;
    onerror: (() => void) | null = null;
    terminated = false;
    jobs: MarkdownJob[] = [];
    postMessage(job: MarkdownJob) {
      this.jobs.push(job);
    }
    terminate() {
      this.terminated = true;
    }
    answer(html: string) {
      const job = this.jobs.shift()!;
      this.onmessage?.({ data: { id: job.id, html } } as MessageEvent<MarkdownDone>);
    }
  }

  it('sanitises what the worker sends back', async () => {
    const worker = new FakeWorker();
    const renderer = createWorkerMarkdownRenderer(() => worker as unknown as Worker);
    const html = renderer.render('x');
    worker.answer('<p>ok</p><script>alert(1)</script><img src=x onerror="alert(2)">');
    expect(await html).toBe('<p>ok</p>');
  });

  it('gives up on a job after 10 s, stops that worker and starts a new one for the next job', async () => {
    vi.useFakeTimers();
    try {
      const workers: FakeWorker[] = [];
      const renderer = createWorkerMarkdownRenderer(
        () => workers[workers.push(new FakeWorker()) - 1] as unknown as Worker,
      );
      const stuck = renderer.render('a_'.repeat(5_000));
      const outcome = stuck.then(
        () => 'done',
        (error: Error) => error.message,
      );
      await vi.advanceTimersByTimeAsync(10_000);
      expect(await outcome).toContain('longer than 10 s');
      expect(workers[0].terminated).toBe(true);
      const next = renderer.render('fine');
      workers[1].answer('<p>fine</p>');
      expect(await next).toBe('<p>fine</p>');
    } finally {
      vi.useRealTimers();
    }
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
