import { useEffect, useId, useState, type DragEvent } from 'react';

interface Props {
  accept: string;
  label: string;
  hint?: string;
  onFile(file: File): void;
  /** Also accept files pasted anywhere on the page (Ctrl+V). */
  acceptPaste?: boolean;
  compact?: boolean;
}

const matches = (file: File, accept: string): boolean =>
  accept.split(',').some((raw) => {
    const rule = raw.trim().toLowerCase();
    if (rule.startsWith('.')) return file.name.toLowerCase().endsWith(rule);
    if (rule.endsWith('/*')) return file.type.startsWith(rule.slice(0, -1));
    return file.type === rule;
  });

/** Drop, paste or pick one file. The hidden input keeps the native file dialog and its label. */
export function FileDrop({ accept, label, hint, onFile, acceptPaste = false, compact = false }: Props) {
  const inputId = useId();
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    if (!acceptPaste) return;
    const onPaste = (event: ClipboardEvent) => {
      const file = Array.from(event.clipboardData?.files ?? []).find((f) => matches(f, accept));
      if (file) {
        event.preventDefault();
        onFile(file);
      }
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [accept, acceptPaste, onFile]);

  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setDragging(false);
    const file = Array.from(event.dataTransfer.files).find((f) => matches(f, accept));
    if (file) onFile(file);
  };

  return (
    <label
      htmlFor={inputId}
      className={`dropzone${dragging ? ' dragging' : ''}${compact ? ' compact' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <span aria-hidden="true">⇪</span>
      <strong>{label}</strong>
      {hint && <span className="small">{hint}</span>}
      <input
        id={inputId}
        type="file"
        accept={accept}
        className="visually-hidden"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
          e.target.value = '';
        }}
      />
    </label>
  );
}
