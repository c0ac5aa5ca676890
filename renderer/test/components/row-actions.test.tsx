import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RowActions } from '../../src/components/row-actions';

afterEach(cleanup);

describe('RowActions', () => {
  it('leaves out the actions given as false, and renders nothing when none is left', () => {
    const { container, rerender } = render(
      <RowActions actions={[false, { label: 'Output', name: 'Output of b1', onClick: () => {} }, false]} />,
    );
    expect(screen.getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual(['Output of b1']);
    rerender(<RowActions actions={[false, false]} />);
    expect(container.innerHTML).toBe('');
  });

  it('keeps the focus on a button whose label changes (Archive, then Unarchive)', () => {
    const action = (archived: boolean) => ({
      label: archived ? 'Unarchive' : 'Archive',
      name: `${archived ? 'Unarchive' : 'Archive'} ft:m`,
      onClick: () => {},
    });
    const { rerender } = render(<RowActions actions={[action(false)]} />);
    screen.getByRole('button', { name: 'Archive ft:m' }).focus();
    rerender(<RowActions actions={[action(true)]} />);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Unarchive ft:m' }));
  });
});
