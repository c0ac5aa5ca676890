import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/lib/gateway-error';
import { Dialog } from '../../src/components/dialog';
import { ErrorNotice } from '../../src/components/error-notice';

afterEach(cleanup);

describe('Dialog', () => {
  it('keeps Tab and Shift+Tab inside the dialog', () => {
    render(
      <>
        <button type="button">behind</button>
        <Dialog title="Ask" onClose={() => {}}>
          <input aria-label="name" />
          <button type="button">OK</button>
        </Dialog>
      </>,
    );
    const close = screen.getByRole('button', { name: 'Close' });
    const ok = screen.getByRole('button', { name: 'OK' });
    ok.focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(ok);
    screen.getByRole('button', { name: 'behind' }).focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
  });

  it('makes the page behind it inert while open, and gives it back with focus on close', () => {
    function Page({ open }: { open: boolean }) {
      return (
        <>
          <button type="button">Open</button>
          {open && (
            <Dialog title="Ask" onClose={() => {}}>
              <button type="button">OK</button>
            </Dialog>
          )}
        </>
      );
    }
    const { container, rerender } = render(<Page open={false} />);
    const opener = screen.getByRole('button', { name: 'Open' });
    opener.focus();
    rerender(<Page open />);
    const dialog = screen.getByRole('dialog', { name: 'Ask' });
    expect(container.closest('[inert]')).toBe(container);
    expect(dialog.closest('[inert]')).toBeNull();
    expect(dialog.contains(document.activeElement)).toBe(true);
    rerender(<Page open={false} />);
    expect(container.hasAttribute('inert')).toBe(false);
    expect(document.activeElement).toBe(opener);
  });

  it('a dialog opened from a dialog leaves the first inert until it closes', () => {
    const outerWith = (inner: boolean) => (
      <Dialog title="Outer" onClose={() => {}}>
        {inner ? (
          <Dialog title="Inner" onClose={() => {}}>
            <p>inner</p>
          </Dialog>
        ) : (
          <p>no inner</p>
        )}
      </Dialog>
    );
    const { rerender } = render(outerWith(false));
    rerender(outerWith(true));
    const outer = screen.getByRole('dialog', { name: 'Outer' });
    expect(outer.closest('[inert]')).not.toBeNull();
    expect(screen.getByRole('dialog', { name: 'Inner' }).closest('[inert]')).toBeNull();
    rerender(outerWith(false));
    expect(screen.getByRole('dialog', { name: 'Outer' }).closest('[inert]')).toBeNull();
  });
});

describe('ErrorNotice', () => {
  it('tells a console user where to fix a spend limit, not which endpoint to PATCH', () => {
    const error = new GatewayError({
      status: 402,
      type: 'insufficient_quota',
      code: 'key_limit_reached',
      message: "This key's spending limit of USD 1 is reached. An Owner can raise it with PATCH /account/keys/key_1.",
    });
    render(<ErrorNotice error={error} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).not.toContain('PATCH');
    expect(alert.textContent).toContain('Keys page');
  });
});
