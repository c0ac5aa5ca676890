import { useEffect, useState } from 'react';

/** Copies `text` to the clipboard and says so for a moment. */
export function CopyButton({
  text,
  label = 'Copy',
  className = 'btn btn-sm',
}: {
  text: string;
  label?: string;
  className?: string;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => setCopied(false), [text]);
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(() => setCopied(true));
  };
  return (
    <button type="button" className={className} onClick={copy}>
      {copied ? 'Copied' : label}
    </button>
  );
}
