import { Navigate, Route, Routes } from 'react-router-dom';
import { ComingSoonPage } from '../components/coming-soon-page';
import { ChatPage } from '../features/chat/components/chat-page';
import { CompletionsPage } from '../features/completions/components/completions-page';
import { EmbeddingsPage } from '../features/embeddings/components/embeddings-page';
import { OcrPage } from '../features/ocr/components/ocr-page';
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
        <Route path="documents" element={<ComingSoonPage title="Documents" />} />
        <Route path="images" element={<ComingSoonPage title="Images" />} />
        <Route path="transcription" element={<ComingSoonPage title="Transcription" />} />
        <Route path="requests" element={<ComingSoonPage title="Request log" />} />
        <Route path="models" element={<ComingSoonPage title="Models" />} />
        <Route path="batches" element={<ComingSoonPage title="Batches" />} />
        <Route path="agents" element={<ComingSoonPage title="Agents" />} />
        <Route path="keys" element={<ComingSoonPage title="Keys" />} />
        <Route path="account" element={<ComingSoonPage title="Account" />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
