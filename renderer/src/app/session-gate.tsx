import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { ErrorNotice } from '../components/error-notice';
import { Loading } from '../components/loading';
import { LoginPage } from '../features/account/components/login-page';
import { useSessionStore } from '../lib/session-store';
import { getSwitchyardBridge } from '../lib/switchyard-bridge';

/**
 * In Electron the preload hands over the gateway URL and key, so there is no login screen; in a
 * browser the user signs in with a key. Signing out clears every cached answer of the old key.
 */
export function SessionGate({ children }: { children: ReactNode }) {
  const apiKey = useSessionStore((s) => s.apiKey);
  const signIn = useSessionStore((s) => s.signIn);
  const queryClient = useQueryClient();
  const bridge = getSwitchyardBridge();
  const [bridgeError, setBridgeError] = useState<unknown>(null);

  useEffect(() => {
    if (!bridge || apiKey) return;
    Promise.all([bridge.getApiKey(), bridge.getGatewayUrl()])
      .then(([key, url]) => signIn(key, { baseUrl: url, source: 'electron' }))
      .catch(setBridgeError);
  }, [bridge, apiKey, signIn]);

  useEffect(() => {
    if (!apiKey) queryClient.clear();
  }, [apiKey, queryClient]);

  if (apiKey) return <>{children}</>;
  if (!bridge) return <LoginPage />;
  return (
    <main className="login">
      {bridgeError ? (
        <ErrorNotice error={bridgeError} title="The desktop app could not hand over its gateway key" />
      ) : (
        <Loading label="Connecting to the built-in gateway…" />
      )}
    </main>
  );
}
