import type { ReactNode } from 'react';
import type { Capability, GatewayModel } from '../lib/gateway-types';
import { useModelsWith } from '../lib/models-query';
import { ErrorNotice } from './error-notice';
import { Loading } from './loading';
import { NoBackendNotice } from './no-backend-notice';
import { ModelDownloadOffer } from './local-models/components/model-download-offer';
import { UseLocalFile } from './local-models/components/use-local-file';

/** What a .gguf file on this computer can serve (through the local llama.cpp engine). */
const LOCAL_FILE_CAPABILITIES: ReadonlySet<Capability> = new Set(['chat', 'completions', 'embeddings']);

interface Props {
  capability: Capability;
  children(models: GatewayModel[]): ReactNode;
  /** Shown under the offers while no model serves the capability (Chat: its message box, disabled, saying why). */
  whenEmpty?: ReactNode;
}

/** Renders its children only when some model offers the capability; otherwise says why not. */
export function ModelGate({ capability, children, whenEmpty }: Props) {
  const models = useModelsWith(capability);
  if (models.isPending) return <Loading label="Loading models…" />;
  if (models.isError)
    return (
      <ErrorNotice error={models.error} title="The model list could not be loaded" onRetry={() => models.refetch()} />
    );
  if (models.data.length === 0) {
    return (
      <>
        <ModelDownloadOffer capability={capability} />
        {LOCAL_FILE_CAPABILITIES.has(capability) && <UseLocalFile />}
        <NoBackendNotice capability={capability} />
        {whenEmpty}
      </>
    );
  }
  return <>{children(models.data)}</>;
}
