import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export type SessionSource = 'web' | 'electron';

interface SessionState {
  apiKey: string | null;
  /** Empty string means "same origin" (the web console served by the gateway). */
  baseUrl: string;
  source: SessionSource;
  signIn(apiKey: string, options?: { baseUrl?: string; source?: SessionSource }): void;
  signOut(): void;
}

/** The active API key. Web mode keeps it in sessionStorage only, so it dies with the tab. */
export const useSessionStore = create<SessionState>()(
  persist(
    (set) => ({
      apiKey: null,
      baseUrl: '',
      source: 'web',
      signIn: (apiKey, options) =>
        set({ apiKey, baseUrl: options?.baseUrl ?? '', source: options?.source ?? 'web' }),
      signOut: () => set({ apiKey: null }),
    }),
    {
      name: 'switchyard.session',
      storage: createJSONStorage(() => sessionStorage),
      partialize: (s) => ({ apiKey: s.source === 'web' ? s.apiKey : null }),
    },
  ),
);
