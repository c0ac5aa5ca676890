import { createJSONStorage } from 'zustand/middleware';

/**
 * localStorage for persisted stores that never throws: a full quota (big pasted images) must not
 * break the page; the in-memory state stays correct and the next smaller write succeeds.
 */
export const safeLocalStorage = createJSONStorage(() => ({
  getItem: (name: string) => localStorage.getItem(name),
  setItem: (name: string, value: string) => {
    try {
      localStorage.setItem(name, value);
    } catch {
      // Quota exceeded: keep running on the in-memory copy.
    }
  },
  removeItem: (name: string) => localStorage.removeItem(name),
}));
