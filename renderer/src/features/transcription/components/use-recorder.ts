import { useCallback, useEffect, useRef, useState } from 'react';

export const canRecord = (): boolean =>
  typeof MediaRecorder !== 'undefined' && typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getUserMedia;

/** Microphone recording with MediaRecorder; `stop` resolves with the recording. */
export function useRecorder() {
  const recorder = useRef<MediaRecorder | null>(null);
  const [recording, setRecording] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const start = useCallback(async () => {
    setError(null);
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const r = new MediaRecorder(stream);
      recorder.current = r;
      r.start();
      setRecording(true);
    } catch (e) {
      setError(
        e instanceof Error ? `The microphone is not available: ${e.message}` : 'The microphone is not available.',
      );
    }
  }, []);

  const stop = useCallback(
    () =>
      new Promise<Blob | null>((resolve) => {
        const r = recorder.current;
        if (!r) return resolve(null);
        const chunks: Blob[] = [];
        r.ondataavailable = (e) => chunks.push(e.data);
        r.onstop = () => {
          r.stream.getTracks().forEach((t) => t.stop());
          recorder.current = null;
          setRecording(false);
          resolve(new Blob(chunks, { type: r.mimeType || 'audio/webm' }));
        };
        r.stop();
      }),
    [],
  );

  useEffect(() => () => recorder.current?.stream.getTracks().forEach((t) => t.stop()), []);

  return { start, stop, recording, error };
}
