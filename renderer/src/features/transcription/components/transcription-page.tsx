import { useEffect, useState, type FormEvent } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorNotice } from '../../../components/error-notice';
import { FileDrop } from '../../../components/file-drop';
import { ModelDownloadOffer } from '../../../components/local-models/components/model-download-offer';
import { ModelGate } from '../../../components/model-gate';
import { ModelPicker, resolveModel } from '../../../components/model-picker';
import { PageHeader } from '../../../components/page-header';
import { downloadFile } from '../../../lib/download';
import { formatSeconds } from '../../../lib/format';
import type { GatewayModel } from '../../../lib/gateway-types';
import { canServe } from '../../../lib/provider-health';
import { useTranscribe } from '../api/transcribe';
import { toSrt, toVtt } from '../../../../../gateway/src/wire/subtitles';
import { canRecord, useRecorder } from './use-recorder';

interface Audio {
  blob: Blob;
  name: string;
}

function Transcriber({ models }: { models: GatewayModel[] }) {
  const [modelChoice, setModel] = useState<string | null>(null);
  const [audio, setAudio] = useState<Audio | null>(null);
  const [audioUrl, setAudioUrl] = useState<string | null>(null);
  const [language, setLanguage] = useState('');
  const transcribe = useTranscribe();
  const recorder = useRecorder();
  const model = resolveModel(models, modelChoice);
  const chosen = models.find((m) => m.id === model);
  // Why the chosen model cannot transcribe, in one line (the gateway's health reason), or null when it can.
  const blocked =
    chosen && !canServe(chosen.health) ? (chosen.health.reason ?? `${chosen.id} is ${chosen.health.state}`) : null;

  useEffect(() => {
    if (!audio) return setAudioUrl(null);
    const url = URL.createObjectURL(audio.blob);
    setAudioUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [audio]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (audio && !blocked)
      transcribe.mutate({ file: audio.blob, filename: audio.name, model, language: language.trim() || undefined });
  };
  const toggleRecording = async () => {
    if (!recorder.recording) return recorder.start();
    const blob = await recorder.stop();
    if (blob) setAudio({ blob, name: `recording.${blob.type.includes('ogg') ? 'ogg' : 'webm'}` });
  };

  const result = transcribe.data;
  const baseName = (audio?.name ?? 'transcript').replace(/\.[^.]+$/, '');
  return (
    <div className="two-col">
      <form className="card stack" onSubmit={submit} aria-label="Audio">
        <FileDrop
          accept="audio/*,video/webm,.wav,.mp3,.m4a,.ogg,.flac,.webm"
          compact={!!audio}
          label={audio ? `${audio.name} — pick another` : 'Drop or pick an audio file'}
          onFile={(f) => setAudio({ blob: f, name: f.name })}
        />
        <div className="row">
          <button
            type="button"
            className={`btn${recorder.recording ? ' btn-danger' : ''}`}
            disabled={!canRecord()}
            onClick={() => void toggleRecording()}
            title={canRecord() ? undefined : 'This browser cannot record audio'}
          >
            {recorder.recording ? '■ Stop recording' : '● Record from microphone'}
          </button>
          {recorder.recording && <span className="badge badge-error">recording…</span>}
        </div>
        {recorder.error && (
          <span className="small" role="alert" style={{ color: 'var(--danger)' }}>
            {recorder.error}
          </span>
        )}
        {audioUrl && <audio controls src={audioUrl} aria-label="Audio to transcribe" />}
        <div className="row" style={{ alignItems: 'flex-end' }}>
          <div className="grow">
            <ModelPicker models={models} value={model} onChange={setModel} />
          </div>
          <label className="field" style={{ width: 110 }}>
            <span>Language</span>
            <input
              className="input"
              placeholder="auto"
              value={language}
              onChange={(e) => setLanguage(e.target.value)}
            />
          </label>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={!audio || !!blocked || transcribe.isPending || recorder.recording}
            title={blocked ?? undefined}
          >
            {transcribe.isPending ? 'Transcribing…' : 'Transcribe'}
          </button>
        </div>
        {blocked && (
          <span className="small transcription-blocked" role="note" data-testid="transcription-blocked" title={blocked}>
            Cannot transcribe yet: {blocked}
          </span>
        )}
      </form>
      <section className="card stack" aria-label="Transcript">
        <div className="card-title">
          Transcript
          {result?.language && <span className="badge">{result.language}</span>}
          {typeof result?.duration === 'number' && <span className="badge">{formatSeconds(result.duration)}</span>}
        </div>
        {transcribe.isError && <ErrorNotice error={transcribe.error} title="Transcription failed" />}
        {result ? (
          result.segments?.length ? (
            <ol className="segments" data-testid="transcript">
              {result.segments.map((s) => (
                <li key={s.id}>
                  <span className="mono small faint">
                    {formatSeconds(s.start)} – {formatSeconds(s.end)}
                  </span>
                  <span>{s.text.trim()}</span>
                </li>
              ))}
            </ol>
          ) : (
            <p data-testid="transcript">{result.text}</p>
          )
        ) : (
          <EmptyState icon="♪" title="No transcript yet">
            <span className="small">Upload or record audio, then transcribe it.</span>
          </EmptyState>
        )}
        {result && (
          <div className="row transcript-exports">
            <button type="button" className="btn btn-sm" onClick={() => downloadFile(`${baseName}.txt`, result.text)}>
              Export text
            </button>
            {result.segments?.length ? (
              <>
                <button
                  type="button"
                  className="btn btn-sm"
                  onClick={() => downloadFile(`${baseName}.srt`, toSrt(result.segments ?? []), 'application/x-subrip')}
                >
                  Export SRT
                </button>
                <button
                  type="button"
                  className="btn btn-sm"
                  onClick={() => downloadFile(`${baseName}.vtt`, toVtt(result.segments ?? []), 'text/vtt')}
                >
                  Export VTT
                </button>
              </>
            ) : null}
          </div>
        )}
      </section>
    </div>
  );
}

export function TranscriptionPage() {
  return (
    <div className="page">
      <PageHeader title="Transcription" description="Speech to text with segment timestamps." />
      <ModelGate capability="transcription">
        {(models) => (
          <>
            {!models.some((m) => canServe(m.health)) && <ModelDownloadOffer capability="transcription" />}
            <Transcriber models={models} />
          </>
        )}
      </ModelGate>
    </div>
  );
}
