import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../../error-notice';
import { useAccount } from '../../../lib/account-query';
import { getSwitchyardBridge } from '../../../lib/switchyard-bridge';
import { useLinkLocalFile } from '../api/link-local-file';
import './local-models.css';

/**
 * "Use a file on this computer": a .gguf file the gateway can read, served where it lies and routed
 * at once, for a console without the model hub. The desktop app opens the system file dialog; the
 * web console takes the file's path on the gateway's computer. Owners only.
 */
export function UseLocalFile() {
  const isOwner = useAccount().data?.api_key.role === 'owner';
  const [path, setPath] = useState('');
  const link = useLinkLocalFile();
  const bridge = getSwitchyardBridge();
  if (!isOwner) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (path.trim()) link.mutate(path.trim());
  };
  const choose = async () => {
    const chosen = await bridge?.pickModelFile();
    if (chosen) {
      setPath(chosen);
      link.mutate(chosen);
    }
  };
  return (
    <section className="card stack local-offer" aria-label="Use a model file on this computer">
      <div>
        <h2 className="card-title">Use a model file on this computer</h2>
        <span className="small faint">
          A .gguf file you already have (llama.cpp, LM Studio, Ollama exports): served where it lies, no copy, no
          download.
        </span>
      </div>
      <form className="row local-file-form" onSubmit={submit}>
        {bridge && (
          <button type="button" className="btn" onClick={() => void choose()} disabled={link.isPending}>
            Choose a file…
          </button>
        )}
        <label className="field grow">
          <span className="visually-hidden">Path of a .gguf file on the gateway&apos;s computer</span>
          <input
            className="input mono"
            placeholder="/home/me/models/qwen2.5-0.5b-instruct-q4_k_m.gguf"
            value={path}
            onChange={(e) => setPath(e.target.value)}
            spellCheck={false}
          />
        </label>
        <button type="submit" className="btn btn-primary" disabled={!path.trim() || link.isPending}>
          {link.isPending ? 'Checking…' : 'Use this file'}
        </button>
      </form>
      {link.isError && <ErrorNotice error={link.error} title="The file cannot be used" />}
      {link.data && (
        <span className="small" role="status">
          Ready: served as <span className="mono">{link.data.model}</span> ({link.data.capabilities.join(', ')}).
        </span>
      )}
    </section>
  );
}
