import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../../../components/error-notice';
import { useSessionStore } from '../../../lib/session-store';
import { accountQueryOptions, fetchAccount } from '../../../lib/account-query';

/** Web mode only: a key is checked against /account/me before it is kept for the session. */
export function LoginPage() {
  const [key, setKey] = useState('');
  const signIn = useSessionStore((s) => s.signIn);
  const signOutReason = useSessionStore((s) => s.signOutReason);
  const queryClient = useQueryClient();
  const login = useMutation({
    mutationFn: (apiKey: string) => fetchAccount(apiKey),
    onSuccess: (account, apiKey) => {
      queryClient.setQueryData(accountQueryOptions().queryKey, account);
      signIn(apiKey);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (key.trim()) login.mutate(key.trim());
  };
  return (
    <main className="login">
      <form className="card stack" onSubmit={submit} aria-labelledby="login-title">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            S
          </span>
          Switchyard
        </div>
        <h1 id="login-title">Sign in to the console</h1>
        <p className="muted">
          Enter an API key for this gateway. It is kept for this browser tab only. A new gateway prints its admin key (
          <code>GATEWAY_ADMIN_KEY</code>) on first start.
        </p>
        {signOutReason && (
          <div className="notice notice-warn" role="alert" data-testid="sign-out-reason">
            {signOutReason}
          </div>
        )}
        <label className="field">
          <span>API key</span>
          <input
            className="input mono"
            type="password"
            autoComplete="off"
            autoFocus
            placeholder="sk-sy-…"
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
        </label>
        {login.isError && <ErrorNotice error={login.error} title="The key was not accepted" />}
        <button className="btn btn-primary" type="submit" disabled={!key.trim() || login.isPending}>
          {login.isPending ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
