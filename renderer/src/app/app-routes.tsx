import { Navigate, Route, Routes } from 'react-router-dom';
import { ChatPage } from '../features/chat/components/chat-page';
import { CompletionsPage } from '../features/completions/components/completions-page';
import { EmbeddingsPage } from '../features/embeddings/components/embeddings-page';
import { OcrPage } from '../features/ocr/components/ocr-page';
import { DocumentsPage } from '../features/documents/components/documents-page';
import { ImagesPage } from '../features/images/components/images-page';
import { TranscriptionPage } from '../features/transcription/components/transcription-page';
import { RequestsPage } from '../features/requests/components/requests-page';
import { KeysPage } from '../features/keys/components/keys-page';
import { AccountPage } from '../features/account/components/account-page';
import { ModelsPage } from '../features/models/components/models-page';
import { BatchesPage } from '../features/batches/components/batches-page';
import { AgentsPage } from '../features/agents/components/agents-page';
import { StatusPage } from '../features/status/components/status-page';
import { SettingsPage } from '../features/settings/components/settings-page';
import { Layout } from './layout';
import { NotFoundPage } from './not-found-page';

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Navigate to="/chat" replace />} />
        <Route path="chat" element={<ChatPage />} />
        <Route path="completions" element={<CompletionsPage />} />
        <Route path="embeddings" element={<EmbeddingsPage />} />
        <Route path="ocr" element={<OcrPage />} />
        <Route path="documents" element={<DocumentsPage />} />
        <Route path="images" element={<ImagesPage />} />
        <Route path="transcription" element={<TranscriptionPage />} />
        <Route path="requests" element={<RequestsPage />} />
        <Route path="models" element={<ModelsPage />} />
        <Route path="batches" element={<BatchesPage />} />
        <Route path="agents" element={<AgentsPage />} />
        <Route path="keys" element={<KeysPage />} />
        <Route path="account" element={<AccountPage />} />
        <Route path="status" element={<StatusPage />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
