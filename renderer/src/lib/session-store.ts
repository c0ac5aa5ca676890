import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { setStorageScope } from './scoped-local-storage';

export type SessionSource = 'web' | 'electron';

interface SessionState {
  apiKey: string | null;
  /** Empty string means "same origin" (the web console served by the gateway). */
  baseUrl: string;
  source: SessionSource;
  /** Why the last session ended when the user did not ask (a revoked key), for the sign-in page. */
  signOutReason: string | null;
  signIn(apiKey: string, options?: { baseUrl?: string; source?: SessionSource }): void;
  signOut(reason?: string): void;
}

/** The active API key. Web mode keeps it in sessionStorage only, so it dies with the tab. */
export const useSessionStore = create<SessionState>()(
  persist(
    (set) => ({
      apiKey: null,
      baseUrl: '',
      source: 'web',
      signOutReason: null,
      signIn: (apiKey, options) =>
        set({ apiKey, baseUrl: options?.baseUrl ?? '', source: options?.source ?? 'web', signOutReason: null }),
      signOut: (reason) => set({ apiKey: null, signOutReason: reason ?? null }),
    }),
    {
      name: 'switchyard.session',
      storage: createJSONStorage(() => sessionStorage),
      // The reason survives a reload: a background call may meet the revoked key just before the user reloads.
      partialize: (s) => ({ apiKey: s.source === 'web' ? s.apiKey : null, signOutReason: s.signOutReason }),
    },
  ),
);

// Per-key stores (chat history) follow the signed-in key; signing out empties them in memory.
setStorageScope(useSessionStore.getState().apiKey);
useSessionStore.subscribe((state) => setStorageScope(state.apiKey));
