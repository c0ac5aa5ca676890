import type { ReactNode } from 'react';
import type { Capability, GatewayModel } from '../lib/gateway-types';
import { useModelsWith } from '../lib/models-query';
import { ErrorNotice } from './error-notice';
import { Loading } from './loading';
import { NoBackendNotice } from './no-backend-notice';
import { ModelDownloadOffer } from './local-models/components/model-download-offer';

interface Props {
  capability: Capability;
  children(models: GatewayModel[]): ReactNode;
}

/** Renders its children only when some model offers the capability; otherwise says why not. */
export function ModelGate({ capability, children }: Props) {
  const models = useModelsWith(capability);
  if (models.isPending) return <Loading label="Loading models…" />;
  if (models.isError) return <ErrorNotice error={models.error} title="The model list could not be loaded" onRetry={() => models.refetch()} />;
  if (models.data.length === 0) {
    return (
      <>
        <ModelDownloadOffer capability={capability} />
        <NoBackendNotice capability={capability} />
      </>
    );
  }
  return <>{children(models.data)}</>;
}
