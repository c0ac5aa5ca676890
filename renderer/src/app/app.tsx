import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { MarkdownRendererProvider } from '../lib/markdown-renderer';
import { createQueryClient } from '../lib/query-client';
import { useThemeStore } from '../lib/theme-store';
import { AppRoutes } from './app-routes';
import { SessionGate } from './session-gate';

export function App() {
  const [queryClient] = useState(createQueryClient);
  const theme = useThemeStore((s) => s.theme);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return (
    <QueryClientProvider client={queryClient}>
      <MarkdownRendererProvider>
        <BrowserRouter basename="/ui">
          <SessionGate>
            <AppRoutes />
          </SessionGate>
        </BrowserRouter>
      </MarkdownRendererProvider>
    </QueryClientProvider>
  );
}
