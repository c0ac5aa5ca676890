import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { registerScopedStore, scopedLocalStorage } from './scoped-local-storage';

/** One item saved from the chat playground's compare mode: the prompt, and the answer chosen as its reference. */
export interface EvalDraftItem {
  input: string;
  expected?: string;
}

interface EvalDraftState {
  items: EvalDraftItem[];
  add(item: EvalDraftItem): void;
  remove(index: number): void;
  clear(): void;
}

/**
 * The dataset draft the playground appends to and the Evals page builds an eval from: shared by two
 * features, so it lives here. Kept in localStorage per key, like the chat history.
 */
export const useEvalDraftStore = create<EvalDraftState>()(
  persist(
    (set, get) => ({
      items: [],
      add: (item) => set({ items: [...get().items, item] }),
      remove: (index) => set({ items: get().items.filter((_, i) => i !== index) }),
      clear: () => set({ items: [] }),
    }),
    { name: 'switchyard.eval-draft', storage: scopedLocalStorage, version: 1, skipHydration: true },
  ),
);

registerScopedStore({
  reset: () => useEvalDraftStore.setState({ items: [] }),
  rehydrate: () => useEvalDraftStore.persist.rehydrate(),
});
