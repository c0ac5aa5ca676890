import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../lib/gateway-error';
import { Dialog } from './dialog';
import { ErrorNotice } from './error-notice';

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
});

describe('ErrorNotice', () => {
  it('tells a console user where to fix a spend limit, not which endpoint to PATCH', () => {
    const error = new GatewayError({ status: 402, type: 'insufficient_quota', code: 'key_limit_reached', message: "This key's spending limit of USD 1 is reached. An Owner can raise it with PATCH /account/keys/key_1." });
    render(<ErrorNotice error={error} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).not.toContain('PATCH');
    expect(alert.textContent).toContain('Keys page');
  });
});
