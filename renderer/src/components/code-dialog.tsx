import { useMemo, useState } from 'react';
import { buildCodeSnippets, type CodeSnippets, type SnippetRequest } from '../lib/code-snippets';
import { CopyButton } from './copy-button';
import { Dialog } from './dialog';
import { Tabs } from './tabs';

const TABS = [
  { id: 'curl', label: 'cURL' },
  { id: 'python', label: 'Python' },
  { id: 'javascript', label: 'JavaScript' },
] as const satisfies readonly { id: keyof CodeSnippets; label: string }[];

/** "View code": the exact request of a playground as cURL, Python and JavaScript (openai SDK where it has the endpoint). */
export function CodeDialog({ request, onClose }: { request: Omit<SnippetRequest, 'baseUrl'>; onClose(): void }) {
  const [tab, setTab] = useState<keyof CodeSnippets>('curl');
  const snippets = useMemo(() => buildCodeSnippets({ ...request, baseUrl: window.location.origin }), [request]);
  return (
    <Dialog title="View code" onClose={onClose} wide>
      <p className="muted small">
        The request exactly as the console sends it. Set <code>SWITCHYARD_API_KEY</code> to your key first.
        {snippets.files.length > 0 && (
          <>
            {' '}
            It reads the uploaded {snippets.files.length === 1 ? 'file' : 'files'} from the folder you run it in:{' '}
            {snippets.files.map((file, i) => (
              <span key={file.name}>
                {i > 0 && ', '}
                <code>{file.name}</code>
              </span>
            ))}
            .
          </>
        )}
      </p>
      <Tabs tabs={TABS} value={tab} onChange={(t) => setTab(t)} label="Language" />
      <pre className="code-block" data-testid="code-snippet">
        <code>{snippets[tab]}</code>
      </pre>
      <div className="row">
        <CopyButton text={snippets[tab]} />
      </div>
    </Dialog>
  );
}
