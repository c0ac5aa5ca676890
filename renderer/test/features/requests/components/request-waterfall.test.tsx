import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestWaterfall } from '../../../../src/features/requests/components/request-waterfall';
import { streamedChatWithRetry } from '../span-fixtures';

afterEach(cleanup);

describe('the request waterfall', () => {
  it("names every bar with its timing and failure, shows the error under a failed stage, and opens a span's attributes from its bar", () => {
    render(<RequestWaterfall spans={streamedChatWithRetry()} />);
    const list = screen.getByRole('list', { name: 'Spans of the request' });
    const bars = within(list).getAllByRole('button');
    expect(bars).toHaveLength(9);
    expect(bars[4].getAttribute('aria-label')).toBe(
      'attempt upstream, attempt 1, starts at 1.5 ms, takes 119 ms, failed: The upstream provider answered 503: overloaded',
    );
    expect(screen.getAllByTestId('span-error').map((error) => error.textContent)).toEqual([
      'The upstream provider answered 503: overloaded',
      'No first byte within 1500 ms',
    ]);
    expect(screen.getByText(/first token: 620 ms/)).toBeTruthy();
    expect(screen.getByText(/last token: 795 ms/)).toBeTruthy();

    const upstreamCall = bars[7];
    expect(upstreamCall.getAttribute('aria-expanded')).toBe('false');
    upstreamCall.focus();
    fireEvent.click(upstreamCall);
    expect(upstreamCall.getAttribute('aria-expanded')).toBe('true');
    const details = screen.getByTestId('span-details');
    expect(details.textContent).toContain('server.address127.0.0.1');
    expect(details.textContent).toContain('gen_ai.response.finish_reasonsstop');
    expect(details.textContent).toContain('first token at 620 ms');
    fireEvent.click(upstreamCall);
    expect(screen.queryByTestId('span-details')).toBeNull();
  });

  it('shows attribute values as text, never as markup', () => {
    const spans = streamedChatWithRetry();
    spans[1].attributes['gen_ai.prompt'] = '<img src=x onerror="window.hacked=1">';
    const { container } = render(<RequestWaterfall spans={spans} />);
    fireEvent.click(screen.getAllByRole('button')[7]);
    expect(screen.getByTestId('span-details').textContent).toContain('<img src=x onerror="window.hacked=1">');
    expect(container.querySelector('img')).toBeNull();
  });

  it('says why there is no timeline for an entry without spans', () => {
    render(<RequestWaterfall spans={undefined} />);
    expect(screen.getByTestId('waterfall-empty').textContent).toMatch(/logged before the gateway kept/);
  });
});
