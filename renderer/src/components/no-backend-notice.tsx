import { Link } from 'react-router-dom';
import { useAccount } from '../lib/account-query';
import type { Capability } from '../lib/gateway-types';

const CAPABILITY_LABELS: Record<Capability, string> = {
  chat: 'chat',
  completions: 'text completions',
  embeddings: 'embeddings',
  ocr: 'OCR',
  documents: 'document question answering',
  vision: 'image analysis',
  image_generation: 'image generation',
  transcription: 'transcription',
  moderation: 'moderation',
  classification: 'classification',
};

const LOCAL_CAPABLE: readonly Capability[] = ['chat', 'completions', 'embeddings'];

/** Says that no model serves `capability` and shows how to add one, instead of failing on submit. */
export function NoBackendNotice({ capability }: { capability: Capability }) {
  const isOwner = useAccount().data?.api_key.role === 'owner';
  const snippet = `providers:
  - id: upstream
    type: openai
    base_url: http://127.0.0.1:9000/v1
    api_key: \${UPSTREAM_KEY}
models:
  - id: my-${capability.replace('_', '-')}-model
    provider: upstream
    upstream_model: name-the-provider-knows
    capabilities: [${capability}]`;
  return (
    <section className="notice notice-warn" aria-label="No backend">
      <span className="notice-title">No model offers {CAPABILITY_LABELS[capability]} yet</span>
      <span data-testid="no-backend-settings">
        The gateway has no route for <code>{capability}</code>.{' '}
        {isOwner ? (
          <>
            Add a provider and a model route on the <Link to="/settings">Settings page</Link>: they serve at once,
            without a restart.
          </>
        ) : (
          'An Owner can add a provider and a model route on the Settings page: they serve at once, without a restart.'
        )}
      </span>
      <span>
        Or add them to the gateway's config file (the file named by <code>GATEWAY_CONFIG</code>) and restart the
        gateway:
      </span>
      <pre className="code-block">{snippet}</pre>
      {LOCAL_CAPABLE.includes(capability) && (
        <span>
          For a local model, put a <code>.gguf</code> file in <code>&lt;data dir&gt;/models</code> (the folder named by{' '}
          <code>GATEWAY_DATA_DIR</code>).
        </span>
      )}
    </section>
  );
}
