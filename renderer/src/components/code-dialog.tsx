import { useMemo, useState } from 'react';
import { buildCodeSnippets, shortenDataUrls, type CodeSnippets, type SnippetRequest } from '../lib/code-snippets';
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
  const { snippets, shortened } = useMemo(() => {
    const short = shortenDataUrls(request.body);
    return { snippets: buildCodeSnippets({ ...request, body: short.value as SnippetRequest['body'], baseUrl: window.location.origin }), shortened: short.shortened };
  }, [request]);
  return (
    <Dialog title="View code" onClose={onClose} wide>
      <p className="muted small">
        The request exactly as the console sends it. Set <code>SWITCHYARD_API_KEY</code> to your key first.
        {shortened && ' Uploaded files are data: URLs, shown shortened here: put your own file’s data URL (or an https URL) in their place.'}
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
