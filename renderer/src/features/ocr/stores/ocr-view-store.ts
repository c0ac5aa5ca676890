import { create } from 'zustand';
import { clampZoom } from '../box-geometry';
import type { Granularity } from '../ocr-types';

export type OcrPanelTab = 'text' | 'tables' | 'structured' | 'json';

interface OcrViewState {
  granularity: Granularity;
  threshold: number;
  zoom: number;
  page: number;
  selected: number | null;
  hovered: number | null;
  query: string;
  tab: OcrPanelTab;
  setGranularity(granularity: Granularity): void;
  setThreshold(threshold: number): void;
  setZoom(zoom: number): void;
  setPage(page: number): void;
  select(index: number | null): void;
  hover(index: number | null): void;
  setQuery(query: string): void;
  setTab(tab: OcrPanelTab): void;
  resetForNewDocument(): void;
}

/** How the inspector shows a result; indices refer to the result's `bboxes` array. */
export const useOcrViewStore = create<OcrViewState>()((set) => ({
  granularity: 'word',
  threshold: 0,
  zoom: 1,
  page: 0,
  selected: null,
  hovered: null,
  query: '',
  tab: 'text',
  setGranularity: (granularity) => set({ granularity, selected: null, hovered: null }),
  setThreshold: (threshold) => set({ threshold }),
  setZoom: (zoom) => set({ zoom: clampZoom(zoom) }),
  setPage: (page) => set({ page, selected: null, hovered: null }),
  select: (selected) => set({ selected }),
  hover: (hovered) => set({ hovered }),
  setQuery: (query) => set({ query }),
  setTab: (tab) => set({ tab }),
  resetForNewDocument: () => set({ page: 0, zoom: 1, selected: null, hovered: null, query: '' }),
}));
