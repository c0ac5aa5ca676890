import { useCallback, useRef, useState } from 'react';
import { isAbortError, type StreamStats } from './collect-text-stream';
import { errorMessage } from './gateway-error';
import { useRefreshModelStates } from './models-query';

export interface TextStreamOutcome {
  text: string;
  stats: StreamStats | null;
  status: 'done' | 'stopped' | 'error';
  error?: string;
}

export type TextStreamStart = (
  signal: AbortSignal,
  onText: (text: string) => void,
) => Promise<{ text: string; stats: StreamStats }>;

/**
 * One text stream at a time: `run` resolves with what came back, also when stopped or failed so
 * the partial text is kept; `stop` aborts the fetch; `text` is the live text.
 */
export function useTextStream() {
  const controller = useRef<AbortController | null>(null);
  const [text, setText] = useState('');
  const [running, setRunning] = useState(false);
  const refreshModels = useRefreshModelStates();

  const run = useCallback(
    async (start: TextStreamStart): Promise<TextStreamOutcome> => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      let latest = '';
      const startedAt = performance.now();
      let firstAt: number | null = null;
      // What a stopped or failed stream still tells: when its first text came.
      const partialStats = (): StreamStats | null =>
        firstAt === null
          ? null
          : {
              timeToFirstTokenMs: firstAt - startedAt,
              tokensPerSecond: null,
              promptTokens: null,
              completionTokens: null,
              cost: null,
            };
      setText('');
      setRunning(true);
      try {
        const result = await start(abort.signal, (t) => {
          firstAt ??= performance.now();
          setText((latest = t));
        });
        return { text: result.text, stats: result.stats, status: 'done' };
      } catch (error) {
        if (abort.signal.aborted || isAbortError(error))
          return { text: latest, stats: partialStats(), status: 'stopped' };
        return { text: latest, stats: partialStats(), status: 'error', error: errorMessage(error) };
      } finally {
        if (controller.current === abort) controller.current = null;
        setRunning(false);
        void refreshModels();
      }
    },
    [refreshModels],
  );

  const stop = useCallback(() => controller.current?.abort(), []);

  return { run, stop, text, running };
}
