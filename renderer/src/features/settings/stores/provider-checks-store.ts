import { create } from 'zustand';
import type { ProviderCheck } from '../api/settings-api';

interface ProviderChecksState {
  /** The last test of each provider in this session, by provider id. */
  checks: Record<string, ProviderCheck>;
  record(id: string, check: ProviderCheck): void;
  forget(id: string): void;
}

/** Test results outlive the row that ran them (a refetch, an edit, a visit to another page). */
export const useProviderChecksStore = create<ProviderChecksState>((set) => ({
  checks: {},
  record: (id, check) => set((s) => ({ checks: { ...s.checks, [id]: check } })),
  forget: (id) =>
    set((s) => {
      const { [id]: _gone, ...rest } = s.checks;
      return { checks: rest };
    }),
}));
