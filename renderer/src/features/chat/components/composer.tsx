import { useId, useState, type ClipboardEvent, type FormEvent, type KeyboardEvent } from 'react';
import { readFileAsDataUrl, readFileAsText } from '../../../lib/read-file';
import { ATTACH_ACCEPT, attachedTextBlock, sortAttachments } from '../attachments';

interface Props {
  running: boolean;
  disabled: boolean;
  supportsImages: boolean;
  onSend(text: string, images: string[]): void;
  onStop(): void;
  onDraftChange?(text: string): void;
}

/** Message input: Enter sends, Shift+Enter breaks the line; images attach, text files are quoted into the message (picker or paste). */
export function Composer({ running, disabled, supportsImages, onSend, onStop, onDraftChange }: Props) {
  const [text, setText] = useState('');
  const [images, setImages] = useState<string[]>([]);
  const fileId = useId();

  const [attachError, setAttachError] = useState<string | null>(null);

  const addFiles = async (files: File[]) => {
    const { images: imageFiles, texts, refused } = sortAttachments(files);
    setAttachError(refused.length ? refused.join(' ') : null);
    const urls = await Promise.all(imageFiles.map(readFileAsDataUrl));
    if (urls.length) setImages((current) => [...current, ...urls]);
    if (texts.length) {
      const blocks = await Promise.all(texts.map(async (f) => attachedTextBlock(f.name, await readFileAsText(f))));
      setText((current) => {
        const next = [current.trimEnd(), ...blocks].filter(Boolean).join('\n\n');
        onDraftChange?.(next);
        return next;
      });
    }
  };
  const update = (value: string) => {
    setText(value);
    onDraftChange?.(value);
  };
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (running || disabled || (!text.trim() && !images.length)) return;
    onSend(text, images);
    update('');
    setImages([]);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = Array.from(event.clipboardData.files);
    if (files.length > 0) {
      event.preventDefault();
      void addFiles(files);
    }
  };

  return (
    <form className="composer" onSubmit={submit}>
      {images.length > 0 && (
        <div className="composer-images">
          {images.map((src, i) => (
            <figure key={i}>
              <img src={src} alt={`Image ${i + 1} to send`} />
              <button
                type="button"
                className="btn btn-sm btn-icon"
                aria-label={`Remove image ${i + 1}`}
                onClick={() => setImages(images.filter((_, j) => j !== i))}
              >
                ✕
              </button>
            </figure>
          ))}
        </div>
      )}
      {attachError && (
        <div className="notice notice-warn small" role="alert">
          {attachError}
        </div>
      )}
      {images.length > 0 && !supportsImages && (
        <p className="small" role="note" style={{ color: 'var(--warning)' }}>
          The selected model does not list the vision capability; the gateway may refuse the images.
        </p>
      )}
      <textarea
        className="textarea"
        aria-label="Message"
        placeholder="Send a message (Enter to send, Shift+Enter for a new line, paste an image to attach it)"
        rows={3}
        value={text}
        onChange={(e) => update(e.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
      />
      <div className="row">
        <label
          htmlFor={fileId}
          className="btn btn-sm"
          role="button"
          tabIndex={0}
          onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && document.getElementById(fileId)?.click()}
        >
          + Attach
        </label>
        <input
          id={fileId}
          type="file"
          accept={ATTACH_ACCEPT}
          multiple
          className="visually-hidden"
          aria-label="Attach an image or a text file"
          tabIndex={-1}
          onChange={(e) => {
            void addFiles(Array.from(e.target.files ?? []));
            e.target.value = '';
          }}
        />
        <span className="grow" />
        {running ? (
          <button type="button" className="btn btn-danger" onClick={onStop}>
            ■ Stop
          </button>
        ) : (
          <button type="submit" className="btn btn-primary" disabled={disabled || (!text.trim() && !images.length)}>
            Send
          </button>
        )}
      </div>
    </form>
  );
}
