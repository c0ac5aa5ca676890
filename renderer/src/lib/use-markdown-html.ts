import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useMarkdownRenderer } from './markdown-renderer';
import { renderMarkdown } from './render-markdown';

/**
 * Above this, text is shown as plain text: markdown parsing and code highlighting grow faster than
 * the text (a 200,000-character answer held the page for 83 s).
 */
export const MARKDOWN_MAX_CHARS = 20_000;
/** Up to this, formatting in place costs a few milliseconds at worst; longer text goes to the worker. */
export const MARKDOWN_IN_PLACE_MAX_CHARS = 2_000;

export type MarkdownHtml =
  | { kind: 'html'; html: string }
  /** Not formatted (yet): too long, still in the worker, or the worker gave up. */
  | { kind: 'plain'; text: string; reason: 'too_long' | 'formatting' | 'failed' };

/**
 * Model output as sanitised HTML without holding up the page: short text is formatted in place,
 * longer text in the markdown worker (the last HTML stays while a newer text is formatted), and
 * text over MARKDOWN_MAX_CHARS is left plain.
 */
export function useMarkdownHtml(source: string): MarkdownHtml {
  const renderer = useMarkdownRenderer();
  // While an answer streams, React may skip to the latest text instead of rendering every token.
  const text = useDeferredValue(source);
  const tooLong = text.length > MARKDOWN_MAX_CHARS;
  const inWorker = renderer !== null && !tooLong && text.length > MARKDOWN_IN_PLACE_MAX_CHARS;
  const inPlace = useMemo(() => (tooLong || inWorker ? null : renderMarkdown(text)), [text, tooLong, inWorker]);

  const [fromWorker, setFromWorker] = useState<{ html: string } | 'failed' | null>(null);
  // One job at a time per view: while one runs, only the newest text waits for its turn.
  const latest = useRef(text);
  const running = useRef(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    latest.current = text;
    if (!inWorker || !renderer || running.current) return;
    const run = (job: string) => {
      running.current = true;
      renderer.render(job).then(
        (html) => {
          running.current = false;
          if (!mounted.current) return;
          setFromWorker({ html });
          if (
            latest.current !== job &&
            latest.current.length > MARKDOWN_IN_PLACE_MAX_CHARS &&
            latest.current.length <= MARKDOWN_MAX_CHARS
          )
            run(latest.current);
        },
        () => {
          running.current = false;
          if (mounted.current) setFromWorker('failed');
        },
      );
    };
    run(text);
  }, [text, inWorker, renderer]);

  if (tooLong) return { kind: 'plain', text, reason: 'too_long' };
  if (inPlace !== null) return { kind: 'html', html: inPlace };
  if (fromWorker === 'failed') return { kind: 'plain', text, reason: 'failed' };
  if (fromWorker) return { kind: 'html', html: fromWorker.html };
  return { kind: 'plain', text, reason: 'formatting' };
}
