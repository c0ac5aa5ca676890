import { createJSONStorage } from 'zustand/middleware';

/**
 * localStorage partitioned by the signed-in key: persisted stores that hold a user's work (chat history)
 * read and write `<name>.<scope>`, where the scope is a hash of the key, so the next key on the same
 * browser starts from its own history. Signed out, nothing is read or written.
 */
let scope: string | null = null;

interface ScopedStore {
  /** Back to the initial, empty state (in memory only). */
  reset(): void;
  rehydrate(): Promise<void> | void;
}
const stores = new Set<ScopedStore>();

/** FNV-1a, twice with different offsets: a stable, non-reversible name for a key (not a security boundary). */
export function storageScopeOf(apiKey: string): string {
  const hash = (offset: number) => {
    let h = offset >>> 0;
    for (let i = 0; i < apiKey.length; i++) h = Math.imul(h ^ apiKey.charCodeAt(i), 16777619) >>> 0;
    return h.toString(16).padStart(8, '0');
  };
  return hash(2166136261) + hash(84696351);
}

export const scopedLocalStorage = createJSONStorage(() => ({
  getItem: (name: string) => (scope ? localStorage.getItem(`${name}.${scope}`) : null),
  setItem: (name: string, value: string) => {
    if (!scope) return;
    try {
      localStorage.setItem(`${name}.${scope}`, value);
    } catch {
      // Quota exceeded: keep running on the in-memory copy.
    }
  },
  removeItem: (name: string) => {
    if (scope) localStorage.removeItem(`${name}.${scope}`);
  },
}));

export function registerScopedStore(store: ScopedStore): void {
  stores.add(store);
  if (scope) void store.rehydrate();
}

/** Switches every scoped store to the key's own data (null: signed out, stores emptied in memory). */
export function setStorageScope(apiKey: string | null): void {
  const next = apiKey ? storageScopeOf(apiKey) : null;
  if (next === scope) return;
  scope = null; // resets must not overwrite anyone's stored data
  for (const store of stores) store.reset();
  scope = next;
  if (scope) for (const store of stores) void store.rehydrate();
}
