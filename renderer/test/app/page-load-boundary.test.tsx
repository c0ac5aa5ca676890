import { cleanup, render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PageLoadBoundary } from '../../src/app/page-load-boundary';

afterEach(cleanup);

describe('PageLoadBoundary', () => {
  it('shows why a page could not load and offers a reload, instead of a blank page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Missing = lazy(() => Promise.reject(new Error('Failed to fetch dynamically imported module')));
    render(
      <PageLoadBoundary>
        <Suspense fallback={<p>loading</p>}>
          <Missing />
        </Suspense>
      </PageLoadBoundary>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This page could not be loaded');
    expect(alert.textContent).toContain('Failed to fetch dynamically imported module');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    vi.restoreAllMocks();
  });
});
