import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { Loading } from '../components/loading';
import { Layout } from './layout';
import { NotFoundPage } from './not-found-page';
import { PageLoadBoundary } from './page-load-boundary';

/** A page loaded with its own chunk on first visit, so the first page a user opens does not wait for the other fourteen. */
function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

/** Where the page will be, so the spinner sits inside the page's padding, not against the header. */
function PageLoading() {
  return (
    <div className="page">
      <Loading label="Loading the page…" />
    </div>
  );
}

/** Created once: a lazy component made during render would remount its page on every render. */
const PAGES: Record<string, ComponentType> = {
  chat: lazyPage(() => import('../features/chat/components/chat-page'), 'ChatPage'),
  completions: lazyPage(() => import('../features/completions/components/completions-page'), 'CompletionsPage'),
  embeddings: lazyPage(() => import('../features/embeddings/components/embeddings-page'), 'EmbeddingsPage'),
  ocr: lazyPage(() => import('../features/ocr/components/ocr-page'), 'OcrPage'),
  documents: lazyPage(() => import('../features/documents/components/documents-page'), 'DocumentsPage'),
  images: lazyPage(() => import('../features/images/components/images-page'), 'ImagesPage'),
  transcription: lazyPage(() => import('../features/transcription/components/transcription-page'), 'TranscriptionPage'),
  requests: lazyPage(() => import('../features/requests/components/requests-page'), 'RequestsPage'),
  models: lazyPage(() => import('../features/models/components/models-page'), 'ModelsPage'),
  batches: lazyPage(() => import('../features/batches/components/batches-page'), 'BatchesPage'),
  evals: lazyPage(() => import('../features/evals/components/evals-page'), 'EvalsPage'),
  agents: lazyPage(() => import('../features/agents/components/agents-page'), 'AgentsPage'),
  mcp: lazyPage(() => import('../features/mcp/components/mcp-page'), 'McpPage'),
  keys: lazyPage(() => import('../features/keys/components/keys-page'), 'KeysPage'),
  account: lazyPage(() => import('../features/account/components/account-page'), 'AccountPage'),
  status: lazyPage(() => import('../features/status/components/status-page'), 'StatusPage'),
  settings: lazyPage(() => import('../features/settings/components/settings-page'), 'SettingsPage'),
  metrics: lazyPage(() => import('../features/status/components/metrics-page'), 'MetricsPage'),
};

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Navigate to="/chat" replace />} />
        {Object.entries(PAGES).map(([path, Page]) => (
          <Route
            key={path}
            path={path}
            element={
              <PageLoadBoundary key={path}>
                <Suspense fallback={<PageLoading />}>
                  <Page />
                </Suspense>
              </PageLoadBoundary>
            }
          />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
